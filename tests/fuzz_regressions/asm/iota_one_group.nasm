.sbuf t i32 [4, 24]
iota dst=t, pattern=[[1, 24]]
