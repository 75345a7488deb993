; Unknown mnemonics get a did-you-mean suggestion when one is close; an nki.isa
; name that .nasm spells otherwise is told how (isa.json nki_spelled_otherwise),
; with no suggestion of a different instruction.
.sbuf t f32 [128, 4]
rnage_select dst=t
memst dst=t, value=0
frobnicate dst=t
register_alloc x=0
register_alloce x=0
scalar_load src=t
nc_transpos dst=t, data=t
