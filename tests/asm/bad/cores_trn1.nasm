; LANGUAGE.md 2.7: trn1 has one core per logical core (LNC=1 only).
.arch trn1
.cores 2
