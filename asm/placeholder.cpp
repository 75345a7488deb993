namespace nisa {}
