// Halide::serialize_pipeline / deserialize_pipeline / deserialize_parameters,
// with upstream 21's signatures. The bytes are this compiler's own
// versioned format (not upstream's flatbuffers .hlpipe): a pipeline
// serialized here deserializes here, with every definition, update, RDom,
// schedule directive, Param and Buffer it reaches.
#ifndef HALIDE_SERIALIZATION_H
#define HALIDE_SERIALIZATION_H

#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "Halide/Parameter.h"
#include "Halide/Pipeline.h"

namespace Halide {

// Replaces `data` with the serialized pipeline. `params` (if given) gets
// the pipeline's Params and ImageParams by name, to be passed back as
// deserialize_pipeline's user_params.
void serialize_pipeline(const Pipeline &pipeline, std::vector<uint8_t> &data);
void serialize_pipeline(const Pipeline &pipeline, std::vector<uint8_t> &data, std::map<std::string, Parameter> &params);
void serialize_pipeline(const Pipeline &pipeline, const std::string &filename);
void serialize_pipeline(const Pipeline &pipeline, const std::string &filename,
                        std::map<std::string, Parameter> &params);

// A new Pipeline with new Funcs, Params and Buffers; a Param or ImageParam
// whose name is in `user_params` is that Parameter instead of a new one.
// Truncated or corrupt data, or data of another format version, is a
// CompileError saying so.
Pipeline deserialize_pipeline(const std::string &filename, const std::map<std::string, Parameter> &user_params);
Pipeline deserialize_pipeline(std::istream &in, const std::map<std::string, Parameter> &user_params);
Pipeline deserialize_pipeline(const std::vector<uint8_t> &data, const std::map<std::string, Parameter> &user_params);

// The Params and ImageParams a serialized pipeline reads, as new
// Parameters (with their types, ranges, defaults and constraints), by name.
std::map<std::string, Parameter> deserialize_parameters(const std::string &filename);
std::map<std::string, Parameter> deserialize_parameters(std::istream &in);
std::map<std::string, Parameter> deserialize_parameters(const std::vector<uint8_t> &data);

} // namespace Halide

#endif
