# ctest-gcmvec also runs the vector writer build/bin/ibsec_gcmvec (bad arguments, an
# unwritable file, the same file as the library's generator); test_gcmvec finds it at
# ../bin/ibsec_gcmvec from its own directory, so build it first.
ctest-gcmvec: $(BUILD)/bin/ibsec_gcmvec
