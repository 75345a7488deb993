; Unknown mnemonics get a did-you-mean suggestion when one is close.
.sbuf t f32 [128, 4]
rnage_select dst=t
memst dst=t, value=0
frobnicate dst=t
