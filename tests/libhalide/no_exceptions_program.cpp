// Built with -fno-exceptions (HALIDE_WITH_EXCEPTIONS off): each error must
// print its message and abort, as upstream's library built without
// exceptions does. no_exceptions_test.cpp runs it once per mode:
//   ok        a pipeline runs: prints the sum of f(x) = 3x + 1 over 0..9
//   user      user_assert in this program fails
//   internal  internal_error in this program
//   library   the library finds the error (realize with one size too many)
#include "Halide.h"

#include <cstdio>
#include <cstring>

using namespace Halide;

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "ok";
    Func f("f");
    Var x("x");
    f(x) = 3 * x + 1;
    if (!std::strcmp(mode, "user")) {
        user_assert(argc == 0) << "the check of this program failed with " << argc << " arguments";
    } else if (!std::strcmp(mode, "internal")) {
        internal_error << "an internal error of this program";
    } else if (!std::strcmp(mode, "library")) {
        Buffer<int> b = f.realize({4, 4});
        std::printf("not reached: %d\n", b(0, 0));
        return 0;
    }
    Buffer<int> b = f.realize({10});
    int sum = 0;
    for (int i = 0; i < 10; i++) {
        sum += b(i);
    }
    std::printf("sum %d\n", sum);
    return 0;
}
