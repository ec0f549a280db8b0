// The message of the Halide error `fn` throws, or "" when it throws none:
// shared by the tests that check upstream's wording of user errors. A user
// error reads "Error: <message>\n", as upstream's: message_of checks that
// form and returns <message> alone.
#ifndef HALIDE_TESTS_ERROR_MESSAGE_H
#define HALIDE_TESTS_ERROR_MESSAGE_H

#include <gtest/gtest.h>

#include <string>

#include "Halide.h"

inline std::string without_error_prefix(const std::string &what) {
    const std::string prefix = "Error: ";
    if (what.compare(0, prefix.size(), prefix) != 0 || what.back() != '\n') {
        ADD_FAILURE() << "a user error not in upstream's form \"Error: <message>\\n\": " << what;
        return what;
    }
    return what.substr(prefix.size(), what.size() - prefix.size() - 1);
}

template <typename T> std::string message_of(T &&fn) {
    try {
        fn();
    } catch (const Halide::CompileError &e) {
        return without_error_prefix(e.what());
    } catch (const Halide::RuntimeError &e) {
        return without_error_prefix(e.what());
    } catch (const Halide::Error &e) {
        return e.what();
    }
    return "";
}

#endif
