// See Error.h: the custom compile-time error reporter and warnings.
#include "Halide/Error.h"

#include <atomic>
#include <iostream>

namespace Halide {

namespace {
std::atomic<CompileTimeErrorReporter *> custom_reporter{nullptr};
} // namespace

bool exceptions_enabled() {
    return true;
}

void set_custom_compile_time_error_reporter(CompileTimeErrorReporter *error_reporter) {
    custom_reporter = error_reporter;
}

namespace Internal {

void issue_warning(const char *warning) {
    if (CompileTimeErrorReporter *r = custom_reporter.load()) {
        r->warning(warning);
    } else {
        std::cerr << warning;
    }
}

std::string user_error_text(const std::string &msg) {
    std::ostringstream m;
    write_error_head<CompileError>(m, nullptr, 0, nullptr);
    m << msg;
    return ending_with_newline(m.str());
}

void report_error_to_custom_reporter(const std::string &msg) {
    if (CompileTimeErrorReporter *r = custom_reporter.load()) {
        r->error(msg.c_str());
    }
}

} // namespace Internal
} // namespace Halide
