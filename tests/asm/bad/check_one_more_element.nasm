; CheckKind one_more_element: nonzero_with_count's dst holds indices plus the count (S4.1).
.sbuf s f32 [128, 8]
.sbuf d8 i32 [128, 8]
.sbuf d10 i32 [128, 10]
nonzero_with_count dst=d8, src=s
nonzero_with_count dst=d10, src=s, index_offset=16
