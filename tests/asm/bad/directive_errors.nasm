; Directives: .file needs a string, .loc a positive line, .equ a name and value.
.file prog.nasm
.loc 0
.equ , 3
.equ X 3
.equ inf, 3
.bogus 1
