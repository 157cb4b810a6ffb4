// The writer against the contract's test vectors, byte for byte.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "mwbench/result_file.hpp"

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void expect_vector_written(const std::string& name) {
  const std::string dir = MWBENCH_VECTOR_DIR;
  const auto expected = nlohmann::json::parse(slurp(dir + "/" + name + ".expected.json"));
  const auto samples = expected.at("samples").get<std::vector<std::uint64_t>>();
  std::vector<std::pair<std::string, std::vector<std::uint64_t>>> values;
  for (const auto& series : expected.at("header").value("named_series", nlohmann::json::array())) {
    const std::string name = series.at("name");
    values.emplace_back(name, expected.at("named_series").at(name));
  }
  std::vector<mwbench::NamedValues> named;
  for (const auto& [name, series] : values) named.push_back({name, series});
  std::ostringstream out;
  mwbench::write_result(out, expected.at("header"), samples, named);
  EXPECT_EQ(out.str(), slurp(dir + "/" + name + ".txt"));
}

TEST(ResultWriter, WritesClientVectorByteForByte) { expect_vector_written("result-v1"); }

TEST(ResultWriter, WritesServerVectorByteForByte) { expect_vector_written("result-v1-server"); }

TEST(ResultWriter, WritesSeriesVectorByteForByte) { expect_vector_written("result-v1-series"); }

TEST(ResultWriter, WritesNamedSeriesVectorByteForByte) { expect_vector_written("result-v1-named"); }

TEST(ResultWriter, WritesOpenLoopVectorByteForByte) { expect_vector_written("result-v1-open"); }

TEST(ResultWriter, RefusesNamedSeriesTheHeaderDoesNotAnnounce) {
  const nlohmann::json header = {{"sample_count", 1},
                                 {"named_series", {{{"name", "total"}, {"count", 1}}}}};
  const std::vector<std::uint64_t> one = {5};
  const std::vector<mwbench::NamedValues> other = {{"teardown", one}};
  std::ostringstream out;
  EXPECT_THROW(mwbench::write_result(out, header, one, other), std::logic_error);
  EXPECT_THROW(mwbench::write_result(out, header, one, {}), std::logic_error);
}

TEST(ResultWriter, RefusesSampleCountThatDoesNotMatch) {
  const nlohmann::json header = {{"sample_count", 3}};
  const std::vector<std::uint64_t> two = {1, 2};
  std::ostringstream out;
  EXPECT_THROW(mwbench::write_result(out, header, two), std::logic_error);
}

TEST(ResultWriter, FileIsRenamedIntoPlace) {
  const auto dir = std::filesystem::temp_directory_path() / "mwbench-result-gtest";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "r.txt").string();
  const std::vector<std::uint64_t> samples = {7, 0, 18446744073709551615u};
  mwbench::write_result_file(path, {{"sample_count", 3}}, samples);
  EXPECT_EQ(slurp(path),
            "mwbench-result 1\n{\"sample_count\":3}\n7\n0\n18446744073709551615\nend\n");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  std::filesystem::remove_all(dir);
}

TEST(ResultWriter, UnwritablePathNamesIt) {
  try {
    mwbench::write_result_file("/nonexistent-dir/r.txt", {{"sample_count", 0}}, {});
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/r.txt"), std::string::npos) << e.what();
  }
}

}  // namespace
