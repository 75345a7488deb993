; SEMANTICS S17.1: a register is declared once.
.arch trn2
.reg  r
.reg  s
.reg  r
