; LANGUAGE.md 2.7: .cores N runs 1 to the arch's cores per logical core (trn2: 2).
.arch trn2
.cores 3
