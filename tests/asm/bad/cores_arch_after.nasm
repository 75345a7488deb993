; LANGUAGE.md 2.7: .cores 2 (on the default arch, trn2), then .arch trn1,
; which has one core.
.cores 2
.arch trn1
