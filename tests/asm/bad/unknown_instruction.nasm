; Unknown mnemonics get a did-you-mean suggestion when one is close; an NKI 0.6
; nki.isa name that nisa does not model yet is named as such, with no
; suggestion of a different instruction (isa.json nki_instructions_not_modeled).
.sbuf t f32 [128, 4]
rnage_select dst=t
memst dst=t, value=0
frobnicate dst=t
register_move dst=t, src=t
register_alloc x=0
register_alloce x=0
register_store data=t
nc_transpos dst=t, data=t
