// See Module.h. A Module is a handle: copies share the functions, buffers
// and renames, as upstream's do.
#include "Halide/Module.h"

#include <cstring>

#include "Halide/Error.h"
#include "Halide/LoweredFunc.h"
#include "Halide/Pipeline.h"
#include "aot/Compile.h"
#include "codegen/EmitModule.h"

namespace Halide {
namespace Internal {

struct ModuleContents {
    std::string name;
    Target target;
    std::vector<Buffer<void>> buffers;
    std::vector<LoweredFunc> functions;
    std::vector<Module> submodules;
    MetadataNameMap renames;
    bool any_strict_float = false;
    std::shared_ptr<AutoSchedulerResults> auto_scheduler_results; // null: none
};

} // namespace Internal

using Internal::LoweredFunc;

namespace {

// `fs` with their output buffer arguments renamed as `renames` says. The
// body refers to an argument buffer only through NAME.buffer, so the old
// name is bound to the renamed argument.
std::vector<LoweredFunc> renamed(std::vector<LoweredFunc> fs, const MetadataNameMap &renames) {
    for (LoweredFunc &f : fs) {
        for (Internal::LoweredArgument &a : f.args) {
            auto it = renames.find(a.name);
            if (it == renames.end() || it->second == a.name) {
                continue;
            }
            user_assert(a.kind == Internal::LoweredArgument::OutputBuffer)
                << "remap_metadata_name: " << a.name << " of function " << f.name
                << " is not an output buffer; only outputs can be renamed";
            f.body = Internal::LetStmt::make(a.name + ".buffer",
                                             Internal::Variable::make(Handle(), it->second + ".buffer"), f.body);
            a.name = it->second;
        }
    }
    return fs;
}

// Every function of `m` and (recursively) its submodules, in order, each
// with the output names its own module's remap_metadata_name gave.
void collect_functions(const Module &m, std::vector<LoweredFunc> &out) {
    for (const LoweredFunc &f : renamed(m.functions(), m.get_metadata_name_map())) {
        out.push_back(f);
    }
    for (const Module &sub : m.submodules()) {
        user_assert(sub.target() == m.target())
            << "Submodule " << sub.name() << " is compiled for " << sub.target().to_string() << ", module " << m.name()
            << " for " << m.target().to_string();
        collect_functions(sub, out);
    }
}

} // namespace

Module::Module(const std::string &name, const Target &target, const MetadataNameMap &renames)
    : contents_(std::make_shared<Internal::ModuleContents>()) {
    contents_->name = name;
    contents_->target = target;
    contents_->renames = renames;
}

const Target &Module::target() const {
    return contents_->target;
}

const std::string &Module::name() const {
    return contents_->name;
}

const std::vector<Buffer<void>> &Module::buffers() const {
    return contents_->buffers;
}

const std::vector<LoweredFunc> &Module::functions() const {
    return contents_->functions;
}

std::vector<LoweredFunc> &Module::functions() {
    return contents_->functions;
}

const std::vector<Module> &Module::submodules() const {
    return contents_->submodules;
}

LoweredFunc Module::get_function_by_name(const std::string &name) const {
    for (const LoweredFunc &f : contents_->functions) {
        if (f.name == name) {
            return f;
        }
    }
    user_error << "get_function_by_name: module " << contents_->name << " has no function named " << name;
    return {};
}

void Module::append(const Buffer<void> &buffer) {
    contents_->buffers.push_back(buffer);
}

void Module::append(const LoweredFunc &function) {
    contents_->functions.push_back(function);
}

void Module::append(const Module &module) {
    contents_->submodules.push_back(module);
}

void Module::compile(const std::map<OutputFileType, std::string> &output_files) const {
    // Upstream writes such buffers as global symbols; ours are embedded in
    // the code of the functions that read them, so nothing would reach them.
    user_assert(contents_->buffers.empty())
        << "Module " << contents_->name
        << " has Buffers appended on their own, which this compiler does not write out; a Buffer a pipeline "
           "reads is embedded in its function's code";
    std::vector<LoweredFunc> fs;
    collect_functions(*this, fs);
    Internal::compile_lowered(output_files, fs, contents_->name, contents_->target);
}

Buffer<uint8_t> Module::compile_to_buffer() const {
    std::vector<LoweredFunc> fs;
    collect_functions(*this, fs);
    user_assert(!fs.empty()) << "Cannot compile module " << contents_->name << ": it has no functions";
    Internal::EmitRequest request;
    request.object = true;
    std::string object = Internal::emit_module(fs, contents_->target, request).object;
    Buffer<uint8_t> bytes(Type(UInt(8)), {(int)object.size()}, contents_->name);
    std::memcpy(bytes.raw_buffer()->host, object.data(), object.size());
    return bytes;
}

Module Module::resolve_submodules() const {
    Module flat(contents_->name, contents_->target, contents_->renames);
    std::vector<LoweredFunc> fs;
    collect_functions(*this, fs);
    for (const LoweredFunc &f : fs) {
        flat.append(f);
    }
    flat.contents_->buffers = contents_->buffers;
    for (const Module &sub : contents_->submodules) {
        for (const Buffer<void> &b : sub.buffers()) {
            flat.append(b);
        }
    }
    flat.contents_->any_strict_float = contents_->any_strict_float;
    flat.contents_->auto_scheduler_results = contents_->auto_scheduler_results;
    return flat;
}

void Module::remap_metadata_name(const std::string &from, const std::string &to) const {
    user_assert(contents_->renames.count(from) == 0)
        << "remap_metadata_name: " << from << " is already renamed to " << contents_->renames.at(from);
    contents_->renames[from] = to;
}

MetadataNameMap Module::get_metadata_name_map() const {
    return contents_->renames;
}

bool Module::any_strict_float() const {
    return contents_->any_strict_float;
}

void Module::set_any_strict_float(bool any_strict_float) {
    contents_->any_strict_float = any_strict_float;
}

const AutoSchedulerResults *Module::get_auto_scheduler_results() const {
    return contents_->auto_scheduler_results.get();
}

void Module::set_auto_scheduler_results(const AutoSchedulerResults &results) {
    contents_->auto_scheduler_results = std::make_shared<AutoSchedulerResults>(results);
}

Module link_modules(const std::string &name, const std::vector<Module> &modules) {
    user_assert(!modules.empty()) << "link_modules: no modules to link into " << name;
    Module linked(name, modules[0].target());
    for (const Module &m : modules) {
        user_assert(m.target() == linked.target())
            << "Mismatched targets in modules to link (" << name << ", " << linked.target().to_string() << "), ("
            << m.name() << ", " << m.target().to_string() << ")";
        Module flat = m.resolve_submodules();
        for (const LoweredFunc &f : flat.functions()) {
            linked.append(f);
        }
        for (const Buffer<void> &b : flat.buffers()) {
            linked.append(b);
        }
        linked.set_any_strict_float(linked.any_strict_float() || m.any_strict_float());
    }
    return linked;
}

} // namespace Halide
