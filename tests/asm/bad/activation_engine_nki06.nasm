; engine= on activation and activate2 is NKI 0.7's (Neuron SDK 2.33).
.arch trn3
.nki 0.6
.sbuf at f32 [32, 8]
.sbuf bt f32 [32, 8]
activation dst=bt, op=exp, data=at, engine=gpsimd
activate2 dst=bt, op=relu, data=at, imm0=1.0, imm1=0.0, op0=multiply, op1=add, engine=gpsimd
; the default is accepted in either version
activation dst=bt, op=exp, data=at, engine=scalar
