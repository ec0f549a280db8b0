// The message of the Halide error `fn` throws, or "" when it throws none:
// shared by the tests that check upstream's wording of user errors.
#ifndef HALIDE_TESTS_ERROR_MESSAGE_H
#define HALIDE_TESTS_ERROR_MESSAGE_H

#include <string>

#include "Halide.h"

template <typename T> std::string message_of(T &&fn) {
    try {
        fn();
    } catch (const Halide::CompileError &e) {
        return e.what();
    } catch (const Halide::Error &e) {
        return e.what();
    }
    return "";
}

#endif
