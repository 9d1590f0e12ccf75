# Precompiles the codelets with popc, as the seed shows, for the run that loads the .gp.
popc tut3_codelets.cpp -o tut3_codelets.gp
