; Unknown mnemonics get a did-you-mean suggestion when one is close; an NKI 0.6
; nki.isa name that nisa does not model yet is named as such, with no
; suggestion of a different instruction (isa.json nki_instructions_not_modeled).
.sbuf t f32 [128, 4]
rnage_select dst=t
memst dst=t, value=0
frobnicate dst=t
tensor_tensor_scan dst=t, data0=t, data1=t, initial=0, op0=add, op1=add
sendrecv dst=t, src=t
register_alloc x=0
register_alloce x=0
