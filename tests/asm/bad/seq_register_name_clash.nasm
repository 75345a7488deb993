; SEMANTICS S17.1: register and tensor names (and .equ constants) share one
; namespace: a name is a tensor's or a register's, never both.
.arch trn2
.equ  K, 4
.sbuf t f32 [128, 4]
.reg  u
.reg  t
.reg  K
.sbuf u f32 [128, 4]
.equ  u, 3
