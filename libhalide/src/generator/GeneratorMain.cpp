// The generator command line (ABI.md section 7), as upstream's GenGen:
//
//   GEN -g NAME -o DIR [-e KINDS] [-f FUNCTION] [-n BASE] target=T [k=v ...]
//   GEN -r RUNTIME -o DIR [-e o|static_library] target=T
//
// Errors (unknown generator, parameter, emit kind, flag) are reported on
// stderr with what was expected, and the exit code is 1.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "Halide/Generator.h"
#include "aot/Compile.h"
#include "aot/ExtraOutputs.h"
#include "generator/GeneratorStub.h"

namespace Halide {
namespace Internal {

namespace {

const char *const kUsage =
    "usage: %s -g GENERATOR -o OUTPUT_DIR [-e EMIT,...] [-f FUNCTION] [-n FILE_BASE] target=TARGET [param=value ...]\n"
    "       %s -r RUNTIME_NAME -o OUTPUT_DIR [-e o|static_library] target=TARGET\n"
    "\n"
    "  -g  the registered generator to run\n"
    "  -o  directory to write the files into\n"
    "  -e  what to write (default c_header,static_library,registration): static_library, object (o),\n"
    "      c_header (h), assembly, bitcode, llvm_assembly, stmt, stmt_html (html), conceptual_stmt,\n"
    "      conceptual_stmt_html, function_info_header, schedule, featurization, c_source, python_extension (py.c),\n"
    "      registration, cpp_stub, shared_library (a .so linked by the compiler itself)\n"
    "  -f  the function name (default: the generator name); ns::name needs c_plus_plus_name_mangling\n"
    "  -n  the file base name (default: the function name)\n"
    "  -r  write a standalone runtime named RUNTIME_NAME instead\n"
    "  target=  the target string (host, x86-64-linux-avx2, ...)\n"
    "  param=value  GeneratorParams and defaults of scalar Inputs\n"
    "\ngenerators: %s\n";

struct Emit {
    OutputFileType type;
    const char *suffix;
};

// Upstream's emit names (ABI.md 7) that this compiler writes.
const std::map<std::string, Emit> &emit_kinds() {
    static const std::map<std::string, Emit> kinds = {
        {"static_library", {OutputFileType::static_library, ".a"}},
        {"object", {OutputFileType::object, ".o"}},
        {"o", {OutputFileType::object, ".o"}},
        {"c_header", {OutputFileType::c_header, ".h"}},
        {"h", {OutputFileType::c_header, ".h"}},
        {"assembly", {OutputFileType::assembly, ".s"}},
        {"bitcode", {OutputFileType::bitcode, ".bc"}},
        {"llvm_assembly", {OutputFileType::llvm_assembly, ".ll"}},
        {"stmt", {OutputFileType::stmt, ".stmt"}},
        {"python_extension", {OutputFileType::python_extension, ".py.cpp"}},
        {"shared_library", {OutputFileType::shared_library, ".so"}}, // ours: upstream has no such emit kind
        {"py.c", {OutputFileType::python_extension, ".py.cpp"}},
        {"stmt_html", {OutputFileType::stmt_html, ".stmt.html"}},
        {"html", {OutputFileType::stmt_html, ".stmt.html"}},
        {"conceptual_stmt", {OutputFileType::conceptual_stmt, ".conceptual.stmt"}},
        {"conceptual_stmt_html", {OutputFileType::conceptual_stmt_html, ".conceptual.stmt.html"}},
        {"function_info_header", {OutputFileType::function_info_header, ".function_info.h"}},
        {"schedule", {OutputFileType::schedule, ".schedule.h"}},
        {"featurization", {OutputFileType::featurization, ".featurization"}},
        {"c_source", {OutputFileType::c_source, ".halide_generated.cpp"}},
    };
    return kinds;
}

// Upstream's emit names this compiler does not write (yet).
const std::set<std::string> &unsupported_kinds() {
    static const std::set<std::string> kinds = {
        "cpp", "pytorch_wrapper", "compiler_log", "hlpipe", "device_code",
    };
    return kinds;
}

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> parts;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            parts.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    parts.push_back(cur);
    return parts;
}

void write_text_file(const std::string &path, const std::string &text) {
    std::FILE *f = std::fopen(path.c_str(), "w");
    user_assert(f) << "Can't write " << path;
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
}

std::string join(const std::vector<std::string> &v) {
    std::string r;
    for (const std::string &s : v) {
        r += (r.empty() ? "" : ", ") + s;
    }
    return r.empty() ? "(none)" : r;
}

int run(int argc, char **argv) {
    std::map<std::string, std::string> flags, params;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "-help" || a == "--help" || a == "-h") {
            std::printf(kUsage, argv[0], argv[0], join(registered_generators()).c_str());
            return 0;
        }
        if (a.size() == 2 && a[0] == '-') {
            static const std::string known = "goefnrpdtsv";
            user_assert(known.find(a[1]) != std::string::npos)
                << "unknown flag '" << a << "' (run with -help for the usage)";
            user_assert(i + 1 < argc) << "flag " << a << " needs a value";
            flags[a] = argv[++i];
            continue;
        }
        size_t eq = a.find('=');
        user_assert(eq != std::string::npos && eq > 0)
            << "unexpected argument '" << a << "': expected a flag (-g, -o, ...) or key=value";
        params[a.substr(0, eq)] = a.substr(eq + 1);
    }
    user_assert(flags.count("-o")) << "no output directory: give -o DIR";
    std::string dir = flags["-o"];
    user_assert(params.count("target")) << "no target: give target=host or a target string such as x86-64-linux-avx2";
    std::string target_string = params["target"];
    params.erase("target");
    std::vector<Target> targets;
    for (const std::string &t : split(target_string, ',')) {
        targets.emplace_back(t);
    }
    Target target = targets.back();

    std::vector<std::string> emits =
        split(flags.count("-e") ? flags["-e"] : "c_header,static_library,registration", ',');
    bool registration = false, stub = false;
    std::map<OutputFileType, std::string> files;
    auto want = [&](const std::string &base) {
        for (const std::string &e : emits) {
            if (e.empty()) {
                continue;
            }
            if (e == "registration") {
                registration = true;
                continue;
            }
            if (e == "cpp_stub") {
                stub = true;
                continue;
            }
            auto it = emit_kinds().find(e);
            if (it == emit_kinds().end()) {
                std::vector<std::string> names;
                for (const auto &kv : emit_kinds()) {
                    names.push_back(kv.first);
                }
                names.push_back("registration");
                names.push_back("cpp_stub");
                user_assert(!unsupported_kinds().count(e))
                    << "emit kind '" << e << "' is not supported by this compiler; it writes: " << join(names);
                user_error << "unknown emit kind '" << e << "'; known: " << join(names);
            }
            files[it->second.type] = dir + "/" + base + it->second.suffix;
        }
    };

    if (flags.count("-r")) {
        std::string name = flags["-r"];
        want(name);
        for (const auto &kv : files) {
            user_assert(kv.first == OutputFileType::object || kv.first == OutputFileType::static_library)
                << "-r writes a runtime: emit o or static_library";
            compile_standalone_runtime(kv.second, target);
        }
        return 0;
    }

    user_assert(flags.count("-g")) << "no generator: give -g NAME (generators: " << join(registered_generators())
                                   << ")";
    std::string generator = flags["-g"];
    std::string function = flags.count("-f") ? flags["-f"] : generator;
    FunctionName fn = split_function_name(function, target);
    std::string base = flags.count("-n") ? flags["-n"] : fn.name;
    want(base);

    if (targets.size() > 1) {
        // A multitarget library: the generator runs once per target (its
        // code may depend on the target), each a variant of one library.
        compile_multitarget(
            files, fn.name, targets,
            [&](const Target &t, const std::string &variant) {
                AbstractGeneratorPtr g = create_generator(generator, GeneratorContext(t));
                g->set_params(params);
                Pipeline p = g->build_pipeline();
                g->autoschedule(p);
                return lower_for_aot(p, g->arguments(), variant, t, g->output_names());
            },
            fn.namespaces);
    } else {
        AbstractGeneratorPtr g = create_generator(generator, GeneratorContext(target));
        g->set_params(params);
        if (!files.empty()) {
            g->compile_to(files, function, target);
        }
    }
    if (stub) {
        // From a fresh instance: the stub's defaults are the declared values.
        AbstractGeneratorPtr g = create_generator(generator, GeneratorContext(target));
        write_text_file(dir + "/" + base + ".stub.h", generator_stub_source(*g));
    }
    if (registration) {
        std::FILE *f = std::fopen((dir + "/" + base + ".registration.cpp").c_str(), "w");
        user_assert(f) << "Can't write " << dir << "/" << base << ".registration.cpp";
        std::string text = registration_source(fn.name, fn.namespaces, target.has_feature(Target::CPlusPlusMangling));
        std::fwrite(text.data(), 1, text.size(), f);
        std::fclose(f);
    }
    return 0;
}

} // namespace

int generate_filter_main(int argc, char **argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception &e) {
        // Compiler errors end with their own newline ("Error: ...\n").
        std::string what = e.what();
        if (what.empty() || what.back() != '\n') {
            what += '\n';
        }
        std::fprintf(stderr, "%s: %s", argc > 0 ? argv[0] : "generator", what.c_str());
        return 1;
    }
}

} // namespace Internal
} // namespace Halide
