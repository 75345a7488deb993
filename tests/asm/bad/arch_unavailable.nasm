; S1.2: an instruction newer than the program's arch names the arch it needs
; and the .arch line that allows it.
.arch trn1
.sbuf s f32 [128, 8]
.sbuf d i32 [128, 9]
.sbuf x f32 [128, 8]
nonzero_with_count dst=d, src=s
activate2 dst=x, op=exp, data=x, imm0=1.0, imm1=0.0, op0=multiply, op1=add
