; Tensors must fit their memory on the program's arch (S1.1); too many
; partitions; offsets past the end; no room left for an automatic tensor.
.arch trn1
.sbuf big f32 [128, 50000]
.psum pbig f32 [128, 4097]
.sbuf late u8 [128, 64] @ 196600
.sbuf wide f32 [129, 4]
.psum p1 f32 [128, 3000]
.psum p2 f32 [128, 2000]
.sbuf neg f32 [128, 4] @ -64
