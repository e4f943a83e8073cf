// A program outside the project's build, linked to libxla_aot_runtime.so
// alone: loads a golden artifact (binary or text), runs it on the inputs of
// its recorded GoldenIoProto and compares with the recorded outputs, bit
// for bit.
// (Only f32 and s32 literals, enough for the artifact the test gives it.)
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "proto/golden_io.pb.h"
#include "runtime/executable/client.h"

namespace {

std::string Read(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<uint8_t> Bytes(const aot::LiteralProto& literal) {
  std::vector<uint8_t> out;
  if (literal.f32s_size() > 0) {
    out.resize(literal.f32s_size() * sizeof(float));
    std::memcpy(out.data(), literal.f32s().data(), out.size());
  } else if (literal.s32s_size() > 0) {
    out.resize(literal.s32s_size() * sizeof(int32_t));
    std::memcpy(out.data(), literal.s32s().data(), out.size());
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: consumer ARTIFACT IO_RECORD\n");
    return 2;
  }
  auto client = aot::Client::Create("host");
  if (!client.ok()) {
    std::fprintf(stderr, "consumer: %s\n", client.status().ToString().c_str());
    return 1;
  }
  auto executable = (*client)->DeserializeExecutable(Read(argv[1]));
  if (!executable.ok()) {
    std::fprintf(stderr, "consumer: %s\n", executable.status().ToString().c_str());
    return 1;
  }
  aot::GoldenIoProto io;
  if (!io.ParseFromString(Read(argv[2]))) {
    std::fprintf(stderr, "consumer: %s is not a GoldenIoProto\n", argv[2]);
    return 1;
  }
  std::vector<std::vector<uint8_t>> arguments;
  for (const aot::LiteralProto& a : io.arguments()) arguments.push_back(Bytes(a));
  std::vector<absl::Span<const uint8_t>> spans(arguments.begin(), arguments.end());
  auto results = (*executable)->Execute(spans);
  if (!results.ok()) {
    std::fprintf(stderr, "consumer: %s\n", results.status().ToString().c_str());
    return 1;
  }
  if (static_cast<int>(results->size()) != io.results_size()) {
    std::fprintf(stderr, "consumer: %zu results, %d recorded\n", results->size(),
                 io.results_size());
    return 1;
  }
  for (int i = 0; i < io.results_size(); ++i) {
    if ((*results)[i] != Bytes(io.results(i))) {
      std::fprintf(stderr, "consumer: result %d differs from the recorded one\n", i);
      return 1;
    }
  }
  std::printf("consumer: %d result(s) match the recorded outputs\n", io.results_size());
  return 0;
}
