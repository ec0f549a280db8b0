// Ahead-of-time compilation: Pipeline::compile_to and its shorthands
// (docs/aot.md). Lowers the pipeline as the JIT does, puts the arguments in
// the caller's order (ABI.md 4), then writes each requested file.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "Halide/Func.h"
#include "Halide/IRPrinter.h"
#include "Halide/Pipeline.h"
#include "aot/CHeader.h"
#include "aot/Compile.h"
#include "aot/ExtraOutputs.h"
#include "aot/Mangle.h"
#include "aot/PythonExtension.h"
#include "aot/StmtHTML.h"
#include "codegen/EmitModule.h"
#include "codegen/Linker.h"
#include "codegen_c/CodeGen_C.h"
#include "frontend/CustomPasses.h"
#include "lower/Lower.h"

namespace Halide {

using namespace Internal;

namespace {

const char *const kUserContext = "__user_context";

void write_file(const std::string &path, const std::string &bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    user_assert(out.good()) << "Can't write '" << path << "': " << std::strerror(errno);
    out.write(bytes.data(), (std::streamsize)bytes.size());
    out.close();
    user_assert(out.good()) << "Can't write '" << path << "': " << std::strerror(errno);
}

// A scalar constant (after casting to the parameter's type) for the metadata.
Expr constant_of(const Expr &e, const Type &t) {
    if (!e.defined()) {
        return Expr();
    }
    if (const IntImm *i = e.as<IntImm>()) {
        return t.is_float() ? FloatImm::make(t, (double)i->value) : e;
    }
    if (e.as<UIntImm>() || e.as<FloatImm>()) {
        return e;
    }
    return Expr();
}

const char *kind_name(Argument::Kind k) {
    return k == Argument::InputScalar ? "a scalar" : (k == Argument::InputBuffer ? "an input buffer" : "an output");
}

// The lowered function with its arguments in ABI order: user_context (if
// the target asks for it), then `args` as listed, then the outputs.
LoweredFunc arrange_arguments(const LoweredPipeline &lp, const std::vector<Argument> &args, const std::string &fn_name,
                              const Target &t) {
    LoweredFunc f = lp.func;
    f.name = fn_name;
    f.args.clear();
    if (t.has_feature(Target::UserContext)) {
        f.args.push_back({kUserContext, LoweredArgument::Scalar, Handle(), 0});
    }
    std::set<std::string> listed;
    for (const Argument &a : args) {
        user_assert(a.is_input()) << "compile_to: argument '" << a.name
                                  << "' is an output; list only the inputs (the outputs come last by themselves)";
        user_assert(listed.insert(a.name).second) << "compile_to: argument '" << a.name << "' is listed twice";
        const LoweredArgument *used = nullptr;
        const ArgumentSource *source = nullptr;
        for (size_t i = 0; i < lp.func.args.size(); i++) {
            if (lp.func.args[i].name == a.name) {
                used = &lp.func.args[i];
                source = &lp.sources[i];
            }
        }
        LoweredArgument la;
        if (used) {
            user_assert(used->is_buffer() == a.is_buffer() && used->type == a.type &&
                        (!a.is_buffer() || used->dimensions == a.dimensions))
                << "compile_to: argument '" << a.name << "' is given as " << kind_name(a.kind) << " of type "
                << type_to_string(a.type) << ", but the pipeline uses it as "
                << (used->is_buffer() ? "a buffer" : "a scalar") << " of type " << type_to_string(used->type);
            la = *used;
            if (source && source->param) {
                la.scalar_min = constant_of(source->param->min_value, la.type);
                la.scalar_max = constant_of(source->param->max_value, la.type);
                la.scalar_def = constant_of(source->param->default_value, la.type);
                la.scalar_estimate = constant_of(source->param->estimate, la.type);
            }
        } else { // listed but not used: still an argument, as upstream does
            la = {a.name, a.is_buffer() ? LoweredArgument::InputBuffer : LoweredArgument::Scalar, a.type, a.dimensions};
        }
        f.args.push_back(la);
    }
    std::vector<std::string> missing;
    for (size_t i = 0; i < lp.func.args.size(); i++) {
        const LoweredArgument &a = lp.func.args[i];
        if (a.kind == LoweredArgument::OutputBuffer || listed.count(a.name)) {
            continue;
        }
        const InputBufferPtr &b = lp.sources[i].buffer;
        if (b && b->concrete && b->bound) {
            f.embedded.push_back({a.name, b->bound, b->keep_alive});
        } else {
            missing.push_back(a.name);
        }
    }
    if (!missing.empty()) {
        std::ostringstream names;
        for (size_t i = 0; i < missing.size(); i++) {
            names << (i ? ", " : "") << "'" << missing[i] << "'";
        }
        user_error << "compile_to: the pipeline '" << fn_name << "' uses " << names.str()
                   << " but the argument list does not contain " << (missing.size() > 1 ? "them" : "it")
                   << ". Pass every Param and ImageParam it reads.";
    }
    for (const LoweredArgument &a : lp.func.args) {
        if (a.kind == LoweredArgument::OutputBuffer) {
            f.args.push_back(a);
        }
    }
    return f;
}

bool is_host_machine(const Target &t) {
    Target host = get_host_target();
    return t.arch == host.arch && t.bits == host.bits && t.os == host.os;
}

// Whether kernels for t carry the runtime. It exists for the machine
// libhalide runs on only: objects and static libraries for another machine
// hold the kernel alone, as with no_runtime (docs/aot.md, "The embedded
// runtime"), and need a runtime built for that machine at link time.
bool embeds_runtime(const Target &t) {
    return !t.has_feature(Target::NoRuntime) && is_host_machine(t);
}

// The kernel object, then (if the target embeds it) the runtime's objects.
std::vector<std::string> with_runtime(const std::string &kernel, const Target &t) {
    std::vector<std::string> objects = {kernel};
    if (embeds_runtime(t)) {
        for (const auto &member : runtime_objects()) {
            objects.push_back(member.second);
        }
    }
    return objects;
}

std::string base_name(const std::string &path) {
    size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Output buffer arguments named after `renames` (Func name -> argument
// name; value k of a Tuple is NAME.k). Lowering refers to an argument
// buffer only through the Variable NAME.buffer, so the old name is bound to
// the new argument at the top of the body. A new name may be the old name
// of another output (a Func named "b" assigned to Output "a" while Output
// "b" is another Func): every argument is first read into a name of its
// own, then the old names are bound, so no binding reads another's.
void rename_outputs(LoweredFunc &f, const std::map<std::string, std::string> &renames) {
    std::vector<std::pair<std::string, std::string>> bound; // old name, new name
    for (LoweredArgument &a : f.args) {
        if (a.kind != LoweredArgument::OutputBuffer) {
            continue;
        }
        size_t dot = a.name.find('.');
        auto it = renames.find(a.name.substr(0, dot));
        if (it == renames.end()) {
            continue;
        }
        std::string renamed = it->second + (dot == std::string::npos ? "" : a.name.substr(dot));
        bound.emplace_back(a.name, renamed);
        a.name = renamed;
    }
    for (const auto &[old_name, new_name] : bound) {
        f.body = LetStmt::make(old_name + ".buffer", Variable::make(Handle(), new_name + ".buffer.argument"), f.body);
    }
    for (const auto &[old_name, new_name] : bound) {
        f.body = LetStmt::make(new_name + ".buffer.argument", Variable::make(Handle(), new_name + ".buffer"), f.body);
    }
}

// The C header, or the C++ one for c_plus_plus_name_mangling.
std::string header(const LoweredFunc &f, const Target &t, const std::vector<std::string> &namespaces) {
    return t.has_feature(Target::CPlusPlusMangling) ? cplusplus_header(f, t.to_string(), namespaces)
                                                    : c_header(f, t.to_string());
}
std::string header(const std::vector<LoweredFunc> &fs, const std::string &name, const Target &t,
                   const std::vector<std::string> &namespaces) {
    return t.has_feature(Target::CPlusPlusMangling) ? cplusplus_header(fs, name, t.to_string(), namespaces)
                                                    : c_header(fs, name, t.to_string());
}

// Object bytes with the entry points given C++ names, if the target asks.
std::string with_cplusplus_names(const std::string &object, const std::vector<LoweredFunc> &fs, const Target &t,
                                 const std::vector<std::string> &namespaces) {
    if (!t.has_feature(Target::CPlusPlusMangling) || object.empty()) {
        return object;
    }
    std::map<std::string, std::string> renames;
    for (const LoweredFunc &f : fs) {
        renames.merge(mangled_entry_points(f, namespaces));
    }
    return rename_symbols(object, renames);
}

// What compile_to_lowered_stmt writes.
std::string stmt_text(const std::vector<LoweredFunc> &fs, const Target &target) {
    std::ostringstream s;
    for (const LoweredFunc &f : fs) {
        s << "// " << f.name << " for " << target.to_string() << "\n" << f.body;
    }
    return s.str();
}

} // namespace

namespace Internal {

// The pipeline lowered for ahead-of-time compilation, arguments in ABI order.
LoweredFunc lower_for_aot(const Pipeline &p, const std::vector<Argument> &args, const std::string &name,
                          const Target &target, const std::map<std::string, std::string> &output_names) {
    std::vector<Func> funcs = p.outputs();
    user_assert(!funcs.empty()) << "Can't compile an empty Pipeline";
    std::vector<FunctionPtr> outputs;
    for (const Func &f : funcs) {
        user_assert(f.defined()) << "Can't compile Func '" << f.name() << "' because it has not been defined";
        outputs.push_back(f.function());
    }
    user_assert(c_identifier(name) == name)
        << "compile_to: the function name '" << name << "' is not a C identifier (letters, digits and '_')";
    user_assert(!target.has_unknowns()) << "compile_to: target '" << target.to_string() << "' is incomplete";
    Pipeline with_passes = p;
    LowerOptions options = lower_options_with_passes(with_passes);
    options.no_asserts = target.has_feature(Target::NoAsserts);
    options.no_bounds_query = target.has_feature(Target::NoBoundsQuery);
    options.debug = target.has_feature(Target::Debug);
    options.target = target;
    LoweredPipeline lp = lower(outputs, name, options);
    LoweredFunc f = arrange_arguments(lp, args, name, target);
    rename_outputs(f, output_names);
    return f;
}

std::string with_file_suffix(const std::string &path, const std::string &suffix) {
    size_t slash = path.find_last_of('/');
    size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) {
        return path + suffix;
    }
    return path.substr(0, dot) + suffix + path.substr(dot);
}

FunctionName split_function_name(const std::string &qualified, const Target &target) {
    FunctionName r;
    size_t start = qualified.compare(0, 2, "::") == 0 ? 2 : 0;
    for (size_t sep; (sep = qualified.find("::", start)) != std::string::npos; start = sep + 2) {
        r.namespaces.push_back(qualified.substr(start, sep - start));
    }
    r.name = qualified.substr(start);
    for (const std::string &part : r.namespaces) {
        user_assert(!part.empty() && c_identifier(part) == part)
            << "'" << qualified << "': '" << part << "' is not a C++ namespace name";
    }
    user_assert(r.namespaces.empty() || target.has_feature(Target::CPlusPlusMangling))
        << "Namespace qualifiers not allowed on function name if not compiling with "
           "Target::CPlusPlusNameMangling (add c_plus_plus_name_mangling to the target): "
        << qualified;
    return r;
}

namespace {

// The parts of a multitarget build: one object per target, the wrapper
// object, and the signature and target string the header describes.
struct MultitargetParts {
    std::vector<std::pair<std::string, std::string>> variants; // (function name, object)
    std::string wrapper;
    LoweredFunc signature;
    Target described;
};

MultitargetParts build_multitarget(const std::string &name, const std::vector<Target> &targets,
                                   const std::vector<std::string> &variant_names,
                                   const std::function<LoweredFunc(const Target &, const std::string &)> &lower_variant,
                                   const std::vector<std::string> &namespaces) {
    user_assert(!targets.empty()) << "A multitarget build needs at least one target";
    const Target &base = targets.back();
    for (const Target &t : targets) {
        user_assert(t.arch == base.arch && t.bits == base.bits && t.os == base.os)
            << "The targets of a multitarget library must share architecture and OS: " << t.to_string() << " vs "
            << base.to_string();
    }
    MultitargetParts parts;
    std::vector<std::string> functions;
    for (size_t i = 0; i < targets.size(); i++) {
        const std::string &variant = variant_names[i];
        Target vt = targets[i].with_feature(Target::NoRuntime);
        LoweredFunc f = lower_variant(vt, variant);
        EmitRequest object;
        object.object = true;
        object.hidden_entry = true; // the wrapper calls it directly
        parts.variants.emplace_back(variant, emit_module(f, vt, object).object);
        functions.push_back(variant);
        parts.signature = f;
    }
    // The wrapper: the base target's code, described as upstream describes it.
    parts.signature.name = name;
    parts.described = base.with_feature(Target::NoRuntime).with_feature(Target::NoBoundsQuery);
    parts.wrapper = with_cplusplus_names(
        emit_multitarget_wrapper(parts.signature, functions, targets, base, parts.described.to_string()),
        {parts.signature}, base, namespaces);
    return parts;
}

} // namespace

void compile_multitarget(const std::map<OutputFileType, std::string> &output_files, const std::string &name,
                         const std::vector<Target> &targets,
                         const std::function<LoweredFunc(const Target &, const std::string &)> &lower_variant,
                         const std::vector<std::string> &namespaces, const std::vector<std::string> &suffixes) {
    user_assert(suffixes.empty() || suffixes.size() == targets.size())
        << "The suffixes list must be empty or the same length as the targets list.";
    for (const auto &[kind, path] : output_files) {
        user_assert(kind == OutputFileType::static_library || kind == OutputFileType::object ||
                    kind == OutputFileType::c_header)
            << "A multitarget build writes a static_library or objects, and a c_header, only, not " << path;
    }
    std::string qualifier; // keeps the (C-named) variants of ns::f and f apart
    for (const std::string &ns : namespaces) {
        qualifier += ns + "_";
    }
    std::vector<std::string> variant_names;
    for (size_t i = 0; i < targets.size(); i++) {
        variant_names.push_back(qualifier + name + "_" +
                                c_identifier(suffixes.empty() ? targets[i].to_string() : suffixes[i]));
    }
    MultitargetParts parts = build_multitarget(name, targets, variant_names, lower_variant, namespaces);
    std::vector<std::pair<std::string, std::string>> members;
    for (const auto &[variant, object] : parts.variants) {
        members.emplace_back(variant + ".o", object);
    }
    members.emplace_back(name + ".o", parts.wrapper);
    if (embeds_runtime(targets.back())) {
        for (const auto &member : runtime_objects()) {
            members.push_back(member);
        }
    }
    for (const auto &[kind, path] : output_files) {
        if (kind == OutputFileType::static_library) {
            write_file(path, make_archive(members));
        } else if (kind == OutputFileType::object) {
            // Upstream's files: PATH-SUFFIX per variant, PATH_wrapper, PATH_runtime.
            for (size_t i = 0; i < targets.size(); i++) {
                std::string suffix = suffixes.empty() ? targets[i].to_string() : suffixes[i];
                write_file(with_file_suffix(path, "-" + suffix), parts.variants[i].second);
            }
            write_file(with_file_suffix(path, "_wrapper"), parts.wrapper);
            if (embeds_runtime(targets.back())) {
                std::vector<std::string> objects;
                for (const auto &member : runtime_objects()) {
                    objects.push_back(member.second);
                }
                write_file(with_file_suffix(path, "_runtime"), link_relocatable(objects));
            }
        } else {
            write_file(path, header(parts.signature, parts.described, namespaces));
        }
    }
}

void compile_lowered(const std::map<OutputFileType, std::string> &output_files, const LoweredFunc &f,
                     const Target &target, const std::vector<std::string> &namespaces,
                     const AutoSchedulerResults *autoscheduled) {
    compile_lowered(output_files, std::vector<LoweredFunc>{f}, f.name, target, namespaces, autoscheduled);
}

void compile_lowered(const std::map<OutputFileType, std::string> &output_files, const std::vector<LoweredFunc> &fs,
                     const std::string &name, const Target &target, const std::vector<std::string> &namespaces,
                     const AutoSchedulerResults *autoscheduled) {
    user_assert(!fs.empty()) << "Cannot compile module " << name << ": it has no functions";
    bool cplusplus = target.has_feature(Target::CPlusPlusMangling);
    EmitRequest request;
    for (const auto &[kind, path] : output_files) {
        // Only objects get their symbols renamed (see Mangle.h).
        user_assert(!cplusplus || !(kind == OutputFileType::assembly || kind == OutputFileType::bitcode ||
                                    kind == OutputFileType::llvm_assembly || kind == OutputFileType::python_extension))
            << "With c_plus_plus_name_mangling this compiler does not write assembly, bitcode, llvm_assembly or "
               "python_extension files: "
            << path;
        request.object |= kind == OutputFileType::object || kind == OutputFileType::static_library;
        request.assembly |= kind == OutputFileType::assembly;
        request.bitcode |= kind == OutputFileType::bitcode;
        request.llvm_assembly |= kind == OutputFileType::llvm_assembly;
        request.object |= kind == OutputFileType::shared_library;
    }
    EmittedModule m;
    if (request.object || request.assembly || request.bitcode || request.llvm_assembly) {
        m = emit_module(fs, target, request);
        m.object = with_cplusplus_names(m.object, fs, target, namespaces);
    }
    for (const auto &[kind, path] : output_files) {
        switch (kind) {
        case OutputFileType::object: {
            std::vector<std::string> objects = with_runtime(m.object, target);
            write_file(path, objects.size() == 1 ? m.object : link_relocatable(objects));
            break;
        }
        case OutputFileType::shared_library:
            user_assert(is_host_machine(target))
                << "A shared library for " << target.to_string() << " is not written: the linker and the runtime it "
                << "holds exist for " << get_host_target().to_string()
                << " only. Write an object or static library and link it with that machine's tools: " << path;
            write_file(path, link_shared_library(with_runtime(m.object, target), base_name(path)));
            break;
        case OutputFileType::assembly: write_file(path, m.assembly); break;
        case OutputFileType::bitcode: write_file(path, m.bitcode); break;
        case OutputFileType::llvm_assembly: write_file(path, m.llvm_assembly); break;
        case OutputFileType::c_header: write_file(path, header(fs, name, target, namespaces)); break;
        case OutputFileType::python_extension:
            user_assert(fs.size() == 1) << "A Python extension holds one function; module " << name << " has "
                                        << fs.size();
            write_file(path, python_extension_source(fs[0]));
            break;
        case OutputFileType::static_library: {
            std::vector<std::pair<std::string, std::string>> members = {{name + ".o", m.object}};
            if (embeds_runtime(target)) {
                for (const auto &member : runtime_objects()) {
                    members.push_back(member);
                }
            }
            write_file(path, make_archive(members));
            break;
        }
        case OutputFileType::stmt:
        case OutputFileType::conceptual_stmt: write_file(path, stmt_text(fs, target)); break;
        case OutputFileType::stmt_html:
        case OutputFileType::conceptual_stmt_html: write_file(path, stmt_html(name, stmt_text(fs, target))); break;
        case OutputFileType::function_info_header: write_file(path, function_info_header(fs, path)); break;
        case OutputFileType::registration: {
            std::string text;
            for (const LoweredFunc &f : fs) {
                text += registration_source(f.name, namespaces, cplusplus);
            }
            write_file(path, text);
            break;
        }
        case OutputFileType::schedule:
            write_file(path, schedule_header(name, target.to_string(), autoscheduled, namespaces));
            break;
        case OutputFileType::featurization: write_file(path, ""); break; // no autoscheduler: nothing to record
        case OutputFileType::device_code: break;                         // no GPU code for a CPU target
        case OutputFileType::compiler_log:
            user_error << "compile_to: a compiler_log is written only while a compiler logger is active, as in "
                          "upstream Halide; this compiler has none ("
                       << path << ")";
            break;
        case OutputFileType::cpp_stub:
            user_error << "compile_to: a cpp_stub is generated from a Generator, not a Pipeline, and this compiler "
                          "does not write generator stubs ("
                       << path << ")";
            break;
        case OutputFileType::c_source: write_file(path, codegen_c_source(fs, target, namespaces)); break;
        case OutputFileType::hlpipe:
        case OutputFileType::pytorch_wrapper:
            user_error
                << "compile_to: this compiler does not write "
                << (kind == OutputFileType::hlpipe ? "hlpipe" : "pytorch_wrapper") << " files (" << path
                << "); it writes object, static_library, shared_library, c_header, assembly, bitcode, "
                   "llvm_assembly, c_source, stmt, stmt_html, function_info_header, registration and python_extension";
            break;
        }
    }
}

} // namespace Internal

void Pipeline::compile_to_multitarget_static_library(const std::string &filename_prefix,
                                                     const std::vector<Argument> &args,
                                                     const std::vector<Target> &targets) {
    std::string name = base_name(filename_prefix);
    compile_multitarget(
        {{OutputFileType::static_library, filename_prefix + ".a"}, {OutputFileType::c_header, filename_prefix + ".h"}},
        name, targets,
        [&](const Target &t, const std::string &variant) { return lower_for_aot(*this, args, variant, t); });
}

void Pipeline::compile_to_multitarget_object_files(const std::string &filename_prefix,
                                                   const std::vector<Argument> &args,
                                                   const std::vector<Target> &targets,
                                                   const std::vector<std::string> &suffixes) {
    user_assert(suffixes.empty() || suffixes.size() == targets.size())
        << "The suffixes list must be empty or the same length as the targets list.";
    user_assert(!targets.empty()) << "A multitarget build needs at least one target";
    std::string name = base_name(filename_prefix);
    if (targets.size() == 1) {
        compile_to_file(filename_prefix, args, name, targets[0]);
        return;
    }
    compile_multitarget(
        {{OutputFileType::object, filename_prefix + ".o"}, {OutputFileType::c_header, filename_prefix + ".h"}}, name,
        targets, [&](const Target &t, const std::string &variant) { return lower_for_aot(*this, args, variant, t); },
        {}, suffixes);
}

void Pipeline::compile_to(const std::map<OutputFileType, std::string> &output_files, const std::vector<Argument> &args,
                          const std::string &fn_name, const Target &target) {
    FunctionName fn = split_function_name(fn_name.empty() ? c_identifier(outputs().at(0).name()) : fn_name, target);
    compile_lowered(output_files, lower_for_aot(*this, args, fn.name, target), target, fn.namespaces);
}

Module Pipeline::compile_to_module(const std::vector<Argument> &args, const std::string &fn_name, const Target &target,
                                   LinkageType linkage_type) {
    (void)linkage_type; // every function gets all three entry points (Module.h)
    std::string qualified = fn_name.empty() ? c_identifier(outputs().at(0).name()) : fn_name;
    FunctionName fn = split_function_name(qualified, target);
    user_assert(fn.namespaces.empty()) << "compile_to_module: the function name " << qualified
                                       << " has namespaces, which only compile_to and its forms support here";
    Module m(fn.name, target);
    m.append(lower_for_aot(*this, args, fn.name, target));
    m.set_any_strict_float(target.has_feature(Target::StrictFloat));
    return m;
}

void Pipeline::compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                                 const std::string &fn_name, const Target &target) {
    compile_to({{OutputFileType::object, filename}}, args, fn_name, target);
}
void Pipeline::compile_to_header(const std::string &filename, const std::vector<Argument> &args,
                                 const std::string &fn_name, const Target &target) {
    compile_to({{OutputFileType::c_header, filename}}, args, fn_name, target);
}
void Pipeline::compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                                   const std::string &fn_name, const Target &target) {
    compile_to({{OutputFileType::assembly, filename}}, args, fn_name, target);
}
void Pipeline::compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                                  const std::string &fn_name, const Target &target) {
    compile_to({{OutputFileType::bitcode, filename}}, args, fn_name, target);
}
void Pipeline::compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                        const std::string &fn_name, const Target &target) {
    compile_to({{OutputFileType::llvm_assembly, filename}}, args, fn_name, target);
}
void Pipeline::compile_to_c(const std::string &filename, const std::vector<Argument> &args, const std::string &fn_name,
                            const Target &target) {
    compile_to({{OutputFileType::c_source, filename}}, args, fn_name, target);
}
void Pipeline::compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args,
                                       const Target &target) {
    compile_to({{OutputFileType::stmt, filename}}, args, "", target);
}
void Pipeline::compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args,
                                       StmtOutputFormat fmt, const Target &target) {
    if (fmt == StmtOutputFormat::Text) {
        compile_to_lowered_stmt(filename, args, target);
        return;
    }
    std::string name = c_identifier(outputs().at(0).name());
    write_file(filename, stmt_html(name, stmt_text({lower_for_aot(*this, args, name, target)}, target)));
}
void Pipeline::compile_to_conceptual_stmt(const std::string &filename, const std::vector<Argument> &args,
                                          StmtOutputFormat fmt, const Target &target) {
    compile_to_lowered_stmt(filename, args, fmt, target);
}
// As upstream: Windows names objects .obj and static libraries .lib.
void Pipeline::compile_to_static_library(const std::string &filename_prefix, const std::vector<Argument> &args,
                                         const std::string &fn_name, const Target &target) {
    const char *ext = target.os == Target::Windows ? ".lib" : ".a";
    compile_to(
        {{OutputFileType::static_library, filename_prefix + ext}, {OutputFileType::c_header, filename_prefix + ".h"}},
        args, fn_name.empty() ? base_name(filename_prefix) : fn_name, target);
}
void Pipeline::compile_to_file(const std::string &filename_prefix, const std::vector<Argument> &args,
                               const std::string &fn_name, const Target &target) {
    const char *ext = target.os == Target::Windows ? ".obj" : ".o";
    compile_to({{OutputFileType::object, filename_prefix + ext}, {OutputFileType::c_header, filename_prefix + ".h"}},
               args, fn_name.empty() ? base_name(filename_prefix) : fn_name, target);
}

void compile_standalone_runtime(const std::string &filename, const Target &target) {
    user_assert(!target.has_feature(Target::NoRuntime))
        << "compile_standalone_runtime: the target " << target.to_string() << " says no_runtime";
    user_assert(is_host_machine(target)) << "compile_standalone_runtime: the runtime is built for "
                                         << get_host_target().to_string() << " only, not " << target.to_string();
    bool archive = filename.size() > 2 && filename.compare(filename.size() - 2, 2, ".a") == 0;
    if (archive) {
        write_file(filename, make_archive(runtime_objects()));
        return;
    }
    std::vector<std::string> objects;
    for (const auto &member : runtime_objects()) {
        objects.push_back(member.second);
    }
    write_file(filename, link_relocatable(objects));
}

// Func's versions compile the Pipeline of this one output.
void Func::compile_to(const std::map<OutputFileType, std::string> &output_files, const std::vector<Argument> &args,
                      const std::string &fn_name, const Target &target) {
    Pipeline(*this).compile_to(output_files, args, fn_name, target);
}
Module Func::compile_to_module(const std::vector<Argument> &args, const std::string &fn_name, const Target &target) {
    return Pipeline(*this).compile_to_module(args, fn_name, target);
}

void Func::compile_to_object(const std::string &filename, const std::vector<Argument> &args, const std::string &fn_name,
                             const Target &target) {
    Pipeline(*this).compile_to_object(filename, args, fn_name, target);
}
void Func::compile_to_header(const std::string &filename, const std::vector<Argument> &args, const std::string &fn_name,
                             const Target &target) {
    Pipeline(*this).compile_to_header(filename, args, fn_name, target);
}
void Func::compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                               const std::string &fn_name, const Target &target) {
    Pipeline(*this).compile_to_assembly(filename, args, fn_name, target);
}
void Func::compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                              const std::string &fn_name, const Target &target) {
    Pipeline(*this).compile_to_bitcode(filename, args, fn_name, target);
}
void Func::compile_to_object(const std::string &filename, const std::vector<Argument> &args, const Target &target) {
    compile_to_object(filename, args, name(), target);
}
void Func::compile_to_assembly(const std::string &filename, const std::vector<Argument> &args, const Target &target) {
    compile_to_assembly(filename, args, name(), target);
}
void Func::compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args, const Target &target) {
    compile_to_bitcode(filename, args, name(), target);
}
void Func::compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                    const Target &target) {
    compile_to_llvm_assembly(filename, args, name(), target);
}
void Func::compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                    const std::string &fn_name, const Target &target) {
    Pipeline(*this).compile_to_llvm_assembly(filename, args, fn_name, target);
}
void Func::compile_to_c(const std::string &filename, const std::vector<Argument> &args, const std::string &fn_name,
                        const Target &target) {
    Pipeline(*this).compile_to_c(filename, args, fn_name, target);
}
void Func::compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args,
                                   const Target &target) {
    Pipeline(*this).compile_to_lowered_stmt(filename, args, target);
}
void Func::compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args, StmtOutputFormat fmt,
                                   const Target &target) {
    Pipeline(*this).compile_to_lowered_stmt(filename, args, fmt, target);
}
void Func::compile_to_conceptual_stmt(const std::string &filename, const std::vector<Argument> &args,
                                      StmtOutputFormat fmt, const Target &target) {
    Pipeline(*this).compile_to_conceptual_stmt(filename, args, fmt, target);
}
void Func::compile_to_multitarget_object_files(const std::string &filename_prefix, const std::vector<Argument> &args,
                                               const std::vector<Target> &targets,
                                               const std::vector<std::string> &suffixes) {
    Pipeline(*this).compile_to_multitarget_object_files(filename_prefix, args, targets, suffixes);
}
void Func::compile_to_static_library(const std::string &filename_prefix, const std::vector<Argument> &args,
                                     const std::string &fn_name, const Target &target) {
    Pipeline(*this).compile_to_static_library(filename_prefix, args, fn_name, target);
}
void Func::compile_to_file(const std::string &filename_prefix, const std::vector<Argument> &args,
                           const std::string &fn_name, const Target &target) {
    Pipeline(*this).compile_to_file(filename_prefix, args, fn_name, target);
}

} // namespace Halide
