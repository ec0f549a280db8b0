// compile_multitarget (Module.h): upstream's free function, a multitarget
// static library from a module factory, on the multitarget build of
// aot/Compile.cpp (the wrapper that picks a variant at run time).
#include <map>
#include <string>
#include <vector>

#include "Halide/Module.h"
#include "aot/Compile.h"

namespace Halide {

namespace {

// Written once per variant (the variant's own code).
bool per_variant(OutputFileType kind) {
    switch (kind) {
    case OutputFileType::assembly:
    case OutputFileType::bitcode:
    case OutputFileType::llvm_assembly:
    case OutputFileType::stmt:
    case OutputFileType::stmt_html:
    case OutputFileType::conceptual_stmt:
    case OutputFileType::conceptual_stmt_html: return true;
    default: return false;
    }
}

} // namespace

void compile_multitarget(const std::string &fn_name, const std::map<OutputFileType, std::string> &output_files,
                         const std::vector<Target> &targets, const std::vector<std::string> &suffixes,
                         const ModuleFactory &module_factory, const CompilerLoggerFactory &compiler_logger_factory) {
    user_assert(!fn_name.empty()) << "Function name must be specified.";
    user_assert(!targets.empty()) << "Must specify at least one target.";
    user_assert(suffixes.empty() || suffixes.size() == targets.size())
        << "The suffixes list must be empty or the same length as the targets list.";
    user_assert(!compiler_logger_factory)
        << "compile_multitarget: this compiler has no compiler logger; pass no compiler_logger_factory";
    const Target &base = targets.back();
    user_assert(!base.has_feature(Target::JIT)) << "JIT not allowed for compile_multitarget.";
    if (targets.size() == 1) {
        module_factory(fn_name, base).compile(output_files);
        return;
    }
    for (const Target &t : targets) {
        user_assert(t.os == base.os && t.arch == base.arch && t.bits == base.bits)
            << "All Targets must have matching arch-bits-os for compile_multitarget.";
        for (Target::Feature f : {Target::ASAN, Target::CPlusPlusMangling, Target::Debug, Target::JIT, Target::MSAN,
                                  Target::NoRuntime, Target::TSAN, Target::SanitizerCoverage, Target::UserContext}) {
            user_assert(t.has_feature(f) == base.has_feature(f))
                << "All Targets must have feature '" << Target::feature_to_name(f)
                << "' set identically for compile_multitarget.";
        }
    }
    std::map<OutputFileType, std::string> library, variant_files;
    for (const auto &[kind, path] : output_files) {
        if (kind == OutputFileType::static_library || kind == OutputFileType::object ||
            kind == OutputFileType::c_header) {
            library[kind] = path;
        } else if (per_variant(kind)) {
            variant_files[kind] = path;
        } else {
            user_error << "compile_multitarget with several targets writes a static_library or objects, a c_header "
                          "and, per target, assembly, bitcode, llvm_assembly and stmt files; not "
                       << path;
        }
    }
    user_assert(library.count(OutputFileType::static_library) + library.count(OutputFileType::object) == 1)
        << "compile_multitarget() expects exactly one of 'object' and 'static_library' to be specified when "
           "multiple targets are specified.";
    Internal::FunctionName fn = Internal::split_function_name(fn_name, base);
    size_t index = 0; // the variants are made in the order of `targets`
    auto lower_variant = [&](const Target &t, const std::string &variant) {
        Module m = module_factory(variant, t);
        if (!variant_files.empty()) {
            std::string suffix = "-" + (suffixes.empty() ? targets[index].to_string() : suffixes[index]);
            std::map<OutputFileType, std::string> files;
            for (const auto &[kind, path] : variant_files) {
                files[kind] = Internal::with_file_suffix(path, suffix);
            }
            m.compile(files);
        }
        index++;
        return m.get_function_by_name(variant);
    };
    Internal::compile_multitarget(library, fn.name, targets, lower_variant, fn.namespaces, suffixes);
}

} // namespace Halide
