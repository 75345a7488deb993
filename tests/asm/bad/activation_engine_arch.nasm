; activation on GpSimd needs NeuronCore-v4 (trn3).
.arch trn2
.sbuf at f32 [32, 8]
.sbuf bt f32 [32, 8]
activation dst=bt, op=exp, data=at, engine=gpsimd
activation dst=bt, op=exp, data=at, engine=scalar
