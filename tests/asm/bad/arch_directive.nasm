; .arch: known name, once, before every declaration and instruction.
.arch trn4
.arch trn2
.sbuf t f32 [128, 4]
.arch trn3
