// HALIDE_WITH_EXCEPTIONS off: runs no_exceptions_program (built with
// -fno-exceptions; its path in NO_EXCEPTIONS_PROGRAM) and checks that each
// error prints its message on stderr and aborts (SIGABRT), as upstream's
// build without exceptions, while a correct program runs to the end.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/wait.h>

namespace {

struct Outcome {
    int status = 0;
    std::string out, err;
};

Outcome run(const std::string &mode) {
    const char *prog = std::getenv("NO_EXCEPTIONS_PROGRAM");
    EXPECT_NE(prog, nullptr);
    std::string err_file = ::testing::TempDir() + "no_exceptions_" + mode + ".err";
    std::string cmd = std::string(prog ? prog : "false") + " " + mode + " 2>" + err_file;
    Outcome r;
    FILE *p = popen(cmd.c_str(), "r");
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), p)) > 0) {
        r.out.append(buf, n);
    }
    r.status = pclose(p);
    FILE *e = fopen(err_file.c_str(), "r");
    while (e && (n = fread(buf, 1, sizeof(buf), e)) > 0) {
        r.err.append(buf, n);
    }
    if (e) {
        fclose(e);
    }
    return r;
}

// Killed by SIGABRT: directly, or as the shell reports it (128 + signal).
bool aborted(const Outcome &r) {
    return (WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGABRT) ||
           (WIFEXITED(r.status) && WEXITSTATUS(r.status) == 128 + SIGABRT);
}

TEST(NoExceptions, CorrectProgramRuns) {
    Outcome r = run("ok");
    EXPECT_TRUE(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0) << r.err;
    int sum = 0;
    for (int i = 0; i < 10; i++) {
        sum += 3 * i + 1;
    }
    EXPECT_EQ(r.out, "sum " + std::to_string(sum) + "\n");
}

TEST(NoExceptions, UserAssertAborts) {
    Outcome r = run("user");
    EXPECT_TRUE(aborted(r)) << r.status;
    EXPECT_NE(r.err.find("Error: the check of this program failed with 2 arguments\n"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << r.err;
}

TEST(NoExceptions, InternalErrorAborts) {
    Outcome r = run("internal");
    EXPECT_TRUE(aborted(r)) << r.status;
    EXPECT_NE(r.err.find("Internal error at "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("an internal error of this program\n"), std::string::npos) << r.err;
}

TEST(NoExceptions, LibraryErrorAborts) {
    Outcome r = run("library");
    EXPECT_TRUE(aborted(r)) << r.status;
    EXPECT_EQ(r.out.find("not reached"), std::string::npos) << r.out;
    EXPECT_EQ(r.err.rfind("Error: ", 0), 0u) << r.err;
    EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << r.err;
}

} // namespace
