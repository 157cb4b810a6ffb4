// The one reader of every file the deployment tools read
// (mwccm/user_input.hpp, input_files.hpp): what it refuses, by name, with
// the file, the line and the bound; and how messages quote a value short.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <mwccm/deployment/input_files.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>

#include "plan_fixture.hpp"

namespace mwccm::deployment::testing {
namespace {

using InputFiles = ScratchTest;

// The one problem reading `file` as a node map gives: "file:line: message".
std::string refusal(const std::string& file, const FileKind& kind = kNodeMapFile) {
  return only_problem([&] { read_input_file(file, kind); }).to_string();
}

TEST_F(InputFiles, ReadsUtf8Text) {
  const std::string text = "Avionics IOR:00ab # näher, 東京, 🚀\n";
  EXPECT_EQ(read_input_file(write("nodes.map", text), kNodeMapFile), text);
}

TEST_F(InputFiles, RefusesWhatIsNotARegularFileByName) {
  EXPECT_EQ(refusal("/dev/zero"), "/dev/zero: is a character device, not a regular file");
  EXPECT_EQ(refusal(scratch_), scratch_ + ": is a directory, not a regular file");
  const std::string fifo = scratch_ + "/nodes.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // Refused without being opened: nothing writes to it, and an open would block.
  EXPECT_EQ(refusal(fifo), fifo + ": is a FIFO, not a regular file");
  const std::string link = scratch_ + "/zero.cdp";
  std::filesystem::create_symlink("/dev/zero", link);
  EXPECT_EQ(refusal(link), link + ": is a character device, not a regular file");
  EXPECT_EQ(refusal(scratch_ + "/absent"),
            scratch_ + "/absent: cannot read the file (No such file or directory)");
}

TEST_F(InputFiles, RefusesAFileLargerThanItsKindsBound) {
  const std::string map = write("nodes.map", "");
  ASSERT_EQ(truncate(map.c_str(), (1 << 20) + 1), 0);  // sparse: nothing is written
  EXPECT_EQ(refusal(map), map + ": is 1048577 bytes; a node map is at most 1 MiB");
  const std::string plan = write("plan.config", "");
  ASSERT_EQ(truncate(plan.c_str(), (std::int64_t{64} << 20) + 1), 0);
  EXPECT_EQ(refusal(plan, kPlanFile), plan + ": is 67108865 bytes; a plan is at most 64 MiB");
  try {
    read_plan(plan);
    ADD_FAILURE() << "read";
  } catch (const PlanError& error) {
    EXPECT_NE(std::string(error.what()).find("a plan is at most 64 MiB"), std::string::npos);
  }
}

TEST_F(InputFiles, RefusesBytesThatAreNotUtf8NamingTheLine) {
  const auto refused = [&](const std::string& bytes) {
    return refusal(write("nodes.map", "a IOR:00\nb IOR:00\n" + bytes + "\n"));
  };
  const std::string map = scratch_ + "/nodes.map";
  EXPECT_EQ(refused("c\xff"), map + ":3: invalid UTF-8 (byte 0xFF): the file must be UTF-8");
  EXPECT_EQ(refused("c\xc0\x80"), map + ":3: invalid UTF-8 (byte 0xC0): the file must be UTF-8");
  EXPECT_EQ(refused("c\xed\xa0\x80"),  // a surrogate
            map + ":3: invalid UTF-8 (byte 0xED): the file must be UTF-8");
  EXPECT_EQ(refused("c\xe2\x82"), map + ":3: invalid UTF-8 (byte 0xE2): the file must be UTF-8");
  EXPECT_EQ(refused(std::string("c\0", 2)), map + ":3: a NUL byte: the file must be UTF-8 text");
}

TEST_F(InputFiles, RefusesInvalidUtf8InAPlanNameBeforeItReachesAnything) {
  const std::string config =
      mutate("basic_sp.config", "bad.config", "Component gps BasicSP", "Component gps\xff BasicSP");
  const PlanProblem in_config = only_problem([&] { read_plan(config); });
  EXPECT_EQ(in_config.where.line, line_of(config, "Component gps"));
  EXPECT_NE(in_config.message.find("invalid UTF-8"), std::string::npos);
  const std::string cdp =
      mutate("basic_sp.cdp", "bad.cdp", "<name>gps</name>", "<name>g\xe9</name>");
  const PlanProblem in_cdp = only_problem([&] { read_plan(cdp); });
  EXPECT_EQ(in_cdp.where.line, line_of(cdp, "<name>g"));
  EXPECT_NE(in_cdp.message.find("invalid UTF-8"), std::string::npos);
}

TEST(Quote, KeepsAValueShortAndOnOneLine) {
  EXPECT_EQ(quote("gps"), "'gps'");
  EXPECT_EQ(quote("a\nb"), "'a\\x0Ab'");
  const std::string huge(20 << 20, 'x');
  EXPECT_EQ(quote(huge), "'" + std::string(60, 'x') + "…' (20971520 bytes)");
  // Cut at a character boundary: 59 ASCII bytes, then a 2-byte character across the 60th.
  EXPECT_EQ(shortened(std::string(59, 'x') + "éééé"), std::string(59, 'x') + "…");
}

}  // namespace
}  // namespace mwccm::deployment::testing
