; NKI 0.7 activation/activate2 engine= (Neuron SDK 2.33: "Scalar Engine or
; GpSIMD Engine (on NeuronCore-v4+)"; "Accumulator is only available on the
; Scalar engine"): what GpSimd refuses.
.arch trn3
.sbuf at f32 [32, 8]
.sbuf bt f32 [32, 8]
.sbuf rt f32 [32, 1]
.psum pt f32 [32, 8]
; no accumulator on GpSimd: reduce_res, reduce_op, a reduce_cmd other than idle
activation dst=bt, op=exp, data=at, reduce_op=add, reduce_res=rt, reduce_cmd=reset_reduce, engine=gpsimd
activation dst=bt, op=exp, data=at, reduce_cmd=reset, engine=gpsimd
activate2 dst=bt, op=relu, data=at, imm0=1.0, imm1=0.0, op0=multiply, op1=add, reduce_op=maximum, reduce_res=rt, reduce_cmd=reset_reduce, engine=gpsimd
; GpSimd reads and writes SBUF only
activation dst=pt, op=exp, data=at, engine=gpsimd
activate2 dst=bt, op=relu, data=pt, imm0=1.0, imm1=0.0, op0=multiply, op1=add, engine=gpsimd
; engines other than Scalar and GpSimd
activation dst=bt, op=exp, data=at, engine=vector
