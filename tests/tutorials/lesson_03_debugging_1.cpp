// Lesson 3: seeing what Halide generates. Funcs and Vars can be given
// names, which appear in the lowered loop nest; compile_to_lowered_stmt
// writes that loop nest (the pseudo-code Halide compiles) to a file.
#include <fstream>
#include <sstream>

#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

int main() {
    Func gradient("my_gradient");
    Var x("x"), y("y");
    gradient(x, y) = x + y;

    Buffer<int> output = gradient.realize({8, 8});
    tutorial::check_image("gradient", output, [](int x, int y, int) { return x + y; });

    // The loop nest as text, written to a file.
    const char *path = "lesson_03_gradient.stmt";
    gradient.compile_to_lowered_stmt(path, {});
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::string stmt = text.str();
    tutorial::check(!stmt.empty(), "the statement file is written");
    // The Func's name and its loops over y and x are in it.
    tutorial::check(stmt.find("my_gradient") != std::string::npos, "the statement names the Func");
    tutorial::check(stmt.find("for") != std::string::npos, "the statement has loops");
    tutorial::check(stmt.find("my_gradient.s0.x") != std::string::npos ||
                        stmt.find("my_gradient.x") != std::string::npos,
                    "the statement has a loop over x");
    // The same text is available without a file.
    tutorial::check(gradient.lowered_stmt().find("my_gradient") != std::string::npos, "lowered_stmt()");
    std::remove(path);

    return tutorial::finish("lesson_03_debugging_1");
}
