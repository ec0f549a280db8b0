// Errors the compiler reports: CompileError for mistakes in the user's
// program (a clear message naming what was wrong), InternalError for bugs in
// the compiler itself. Both are exceptions, except in code built without
// them (HALIDE_WITH_EXCEPTIONS off, below), where an error aborts.
#ifndef HALIDE_ERROR_H
#define HALIDE_ERROR_H

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace Halide {

// Whether the compiler reports errors by throwing (upstream can be built to
// abort instead); this one always throws, so it returns true.
bool exceptions_enabled();

struct Error : std::runtime_error {
    explicit Error(const std::string &msg) : std::runtime_error(msg) {}
};

// The user's program is wrong (an undefined Func, a bad schedule, ...).
struct CompileError : Error {
    explicit CompileError(const std::string &msg) : Error(msg) {}
};

// A pipeline failed while running (JIT): the runtime's message and code.
struct RuntimeError : Error {
    RuntimeError(const std::string &msg, int c) : Error(msg), code(c) {}
    int code;
};

// The compiler broke one of its own invariants.
struct InternalError : Error {
    explicit InternalError(const std::string &msg) : Error(msg) {}
};

// Receives the compiler's warnings and errors instead of stderr and
// exceptions, as upstream's: error() must not return.
class CompileTimeErrorReporter {
public:
    virtual ~CompileTimeErrorReporter() = default;
    virtual void warning(const char *msg) = 0;
    [[noreturn]] virtual void error(const char *msg) = 0;
};

// nullptr restores the default (warnings to stderr, errors thrown).
void set_custom_compile_time_error_reporter(CompileTimeErrorReporter *error_reporter);

namespace Internal {

// A user error's text as ErrorReport makes it ("Error: <msg>\n"), for code
// that throws CompileError itself.
std::string user_error_text(const std::string &msg);

// Prints a warning (user_warning's "Warning: <msg>\n") on stderr, or hands
// it to the custom reporter.
void issue_warning(const char *warning);
// The custom reporter, if any, gets a user error's message first.
void report_error_to_custom_reporter(const std::string &msg);

// The start of an error of kind E, as upstream's: a user (or runtime) error
// reads "Error: <message>\n", an internal one names where the compiler
// failed; a failed assertion quotes its condition.
template <typename E> void write_error_head(std::ostream &out, const char *file, int line, const char *condition) {
    if (std::is_same<E, InternalError>::value) {
        out << "Internal error at " << file << ":" << line << ": ";
    } else {
        out << "Error: ";
    }
    if (condition) {
        out << "Condition failed: " << condition << ": ";
    }
}

// A report ends with exactly the newline its writer may have left out.
inline std::string ending_with_newline(std::string m) {
    if (m.empty() || m.back() != '\n') {
        m += '\n';
    }
    return m;
}

// Collects a message with <<, then throws E when destroyed.
template <typename E> class ErrorReport {
public:
    ErrorReport(const char *file, int line, const char *condition) { write_error_head<E>(msg_, file, line, condition); }
    template <typename T> ErrorReport &operator<<(const T &x) {
        msg_ << x;
        return *this;
    }
    [[noreturn]] ~ErrorReport() noexcept(false) {
        std::string m = ending_with_newline(msg_.str());
        report_error_to_custom_reporter(m);
        if constexpr (std::is_same<E, RuntimeError>::value) {
            throw E(m, -1);
        } else {
            throw E(m);
        }
    }

private:
    std::ostringstream msg_;
};

// Collects a message with <<, then prints it as a warning when destroyed.
class WarningReport {
public:
    WarningReport() { msg_ << "Warning: "; }
    template <typename T> WarningReport &operator<<(const T &x) {
        msg_ << x;
        return *this;
    }
    ~WarningReport() {
        std::string m = ending_with_newline(msg_.str());
        issue_warning(m.c_str());
    }

private:
    std::ostringstream msg_;
};

} // namespace Internal
} // namespace Halide

// HALIDE_WITH_EXCEPTIONS off: what upstream's library built without
// exceptions does, for a program that includes this header built without
// them (-fno-exceptions, or -DHALIDE_WITH_EXCEPTIONS=0): an error prints its
// message on stderr and aborts. The report macros below then abort where
// they stand, and the library (built with exceptions, so still throwing
// for everyone else) reports its errors to a reporter that aborts, unless
// the program sets its own. exceptions_enabled() answers for the library.
#if defined(HALIDE_WITH_EXCEPTIONS) && (0 - HALIDE_WITH_EXCEPTIONS - 1 == 1) // defined empty: on
#define HALIDE_INTERNAL_ERRORS_THROW 1
#elif defined(HALIDE_WITH_EXCEPTIONS)
#define HALIDE_INTERNAL_ERRORS_THROW ((HALIDE_WITH_EXCEPTIONS) != 0)
#elif defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define HALIDE_INTERNAL_ERRORS_THROW 1
#else
#define HALIDE_INTERNAL_ERRORS_THROW 0
#endif

#if !HALIDE_INTERNAL_ERRORS_THROW
namespace Halide {
namespace Internal {

// An ErrorReport that aborts (a type of its own: the library's throws).
template <typename E> class AbortingErrorReport {
public:
    AbortingErrorReport(const char *file, int line, const char *condition) {
        write_error_head<E>(msg_, file, line, condition);
    }
    template <typename T> AbortingErrorReport &operator<<(const T &x) {
        msg_ << x;
        return *this;
    }
    [[noreturn]] ~AbortingErrorReport() {
        std::string m = ending_with_newline(msg_.str());
        report_error_to_custom_reporter(m); // returns only without a reporter
        std::fputs(m.c_str(), stderr);
        std::abort();
    }

private:
    std::ostringstream msg_;
};

// Receives the library's errors in a program built without exceptions.
class AbortingErrorReporter final : public CompileTimeErrorReporter {
public:
    void warning(const char *msg) override { std::fputs(msg, stderr); }
    [[noreturn]] void error(const char *msg) override {
        std::fputs(msg, stderr);
        std::abort();
    }
};
inline AbortingErrorReporter aborting_error_reporter;
inline const bool aborting_error_reporter_installed =
    (set_custom_compile_time_error_reporter(&aborting_error_reporter), true);

} // namespace Internal
} // namespace Halide
#define HALIDE_INTERNAL_ERROR_REPORT ::Halide::Internal::AbortingErrorReport
#else
#define HALIDE_INTERNAL_ERROR_REPORT ::Halide::Internal::ErrorReport
#endif

// Stream-style reports, as upstream's: `user_assert(cond) << "message";`
// throws CompileError when cond is false (the message is only evaluated
// then), `user_error << ...` always; internal_* throw InternalError,
// halide_runtime_error RuntimeError; user_warning prints and goes on.
// The _halide_ names are upstream's spelling for code outside its headers
// (its Halide.h undefines the short ones unless HALIDE_KEEP_MACROS is
// defined; ours keeps both).
#define _halide_user_error HALIDE_INTERNAL_ERROR_REPORT<::Halide::CompileError>(__FILE__, __LINE__, nullptr)
#define _halide_user_assert(c)                                                                                         \
    if (!(c))                                                                                                          \
    HALIDE_INTERNAL_ERROR_REPORT<::Halide::CompileError>(__FILE__, __LINE__, nullptr)
#define _halide_internal_error HALIDE_INTERNAL_ERROR_REPORT<::Halide::InternalError>(__FILE__, __LINE__, nullptr)
#define _halide_internal_assert(c)                                                                                     \
    if (!(c))                                                                                                          \
    HALIDE_INTERNAL_ERROR_REPORT<::Halide::InternalError>(__FILE__, __LINE__, #c)
#define _halide_runtime_error HALIDE_INTERNAL_ERROR_REPORT<::Halide::RuntimeError>(__FILE__, __LINE__, nullptr)
#define _halide_user_warning ::Halide::Internal::WarningReport()

#define user_error _halide_user_error
#define user_assert(c) _halide_user_assert(c)
#define internal_error _halide_internal_error
#define internal_assert(c) _halide_internal_assert(c)
#define halide_runtime_error _halide_runtime_error
#define user_warning _halide_user_warning

#endif
