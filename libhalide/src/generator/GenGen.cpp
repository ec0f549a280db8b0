// main() for generator executables: link this (the libhalide_gengen
// library) with the generators' sources, as upstream's GenGen.cpp.
#include "Halide/Generator.h"

int main(int argc, char **argv) {
    return Halide::Internal::generate_filter_main(argc, argv);
}
