// The delivery board: two mappings of one file see one board, a client's
// futex wait is woken by a servant's stamp, and the server's board leaves no
// file behind.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <thread>
#include <vector>

#include "common/delivery_board.hpp"
#include "mwbench/clock.hpp"

namespace mwbench::common {
namespace {

constexpr timespec kLongTimeout{30, 0};  // bounds a broken wake-up, never reached

std::string board_path(const char* test) {
  return (std::filesystem::path(testing::TempDir()) /
          (std::string("delivery-") + test + "-" + std::to_string(getpid()) + ".endpoint"))
             .string() +
         ".delivery";
}

// Whether a wait on `waiter` for one entry is woken by a stamp on `stamper`
// (two views of one board). The waiter announces itself on the board before
// it sleeps: the stamp comes only then, so that the wake-up, not the first
// look, ends its wait.
bool woken_by_a_stamp(DeliveryBoard& waiter, DeliveryBoard& stamper) {
  bool woken = false;
  std::thread waiting([&] { woken = waiter.wait_for_entries(1, kLongTimeout); });
  while (!stamper.has_waiter()) std::this_thread::yield();
  stamper.stamp();
  waiting.join();
  return woken;
}

std::vector<unsigned char> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(DeliveryBoard, PathIsNextToTheEndpointFile) {
  EXPECT_EQ(DeliveryBoard::path_for("/tmp/cell/server.endpoint"),
            "/tmp/cell/server.endpoint.delivery");
}

TEST(DeliveryBoard, TwoMappingsOfOneFileSeeOneBoard) {
  const std::string path = board_path("two-mappings");
  DeliveryBoard server = DeliveryBoard::create(path);
  DeliveryBoard client = DeliveryBoard::open(path);
  EXPECT_EQ(client.entries(), 0u);

  const std::uint64_t before = now_ns();
  server.stamp();
  const std::uint64_t after = now_ns();
  ASSERT_EQ(client.entries(), 1u);
  EXPECT_GE(client.entry_ns(), before);
  EXPECT_LE(client.entry_ns(), after);

  server.stamp();
  EXPECT_EQ(client.entries(), 2u);
  EXPECT_EQ(client.entry_ns(), server.entry_ns());

  // The file's layout, as another language's driver would read it.
  const std::vector<unsigned char> bytes = file_bytes(path);
  ASSERT_EQ(bytes.size(), DeliveryBoard::kBytes);
  std::uint32_t entries = 0;
  std::uint64_t entry_ns = 0;
  std::memcpy(&entries, bytes.data(), sizeof entries);
  std::memcpy(&entry_ns, bytes.data() + 8, sizeof entry_ns);
  EXPECT_EQ(entries, 2u);
  EXPECT_EQ(entry_ns, client.entry_ns());
}

TEST(DeliveryBoard, FutexWaitIsWokenByAStampThroughTheOtherMapping) {
  const std::string path = board_path("futex");
  DeliveryBoard server = DeliveryBoard::create(path);
  DeliveryBoard client = DeliveryBoard::open(path);
  EXPECT_TRUE(woken_by_a_stamp(client, server));
  EXPECT_EQ(client.entries(), 1u);
  EXPECT_FALSE(server.has_waiter());
}

TEST(DeliveryBoard, WaitReturnsAtOnceForEntriesAlreadyMade) {
  DeliveryBoard board = DeliveryBoard::in_process();
  board.stamp();
  board.stamp();
  EXPECT_TRUE(board.wait_for_entries(2, kLongTimeout));
  EXPECT_FALSE(board.has_waiter());
}

TEST(DeliveryBoard, WaitWithoutAStampTimesOut) {
  DeliveryBoard board = DeliveryBoard::in_process();
  EXPECT_FALSE(board.wait_for_entries(1, timespec{0, 1'000'000}));
  EXPECT_EQ(board.entries(), 0u);
}

TEST(DeliveryBoard, InProcessBoardIsWokenFromAnotherThread) {
  DeliveryBoard board = DeliveryBoard::in_process();
  EXPECT_TRUE(woken_by_a_stamp(board, board));
}

TEST(DeliveryBoard, ServerRemovesItsFileWhenDestroyed) {
  const std::string path = board_path("removed");
  {
    DeliveryBoard server = DeliveryBoard::create(path);
    DeliveryBoard moved = std::move(server);  // the file goes with the last owner
    EXPECT_TRUE(std::filesystem::exists(path));
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(DeliveryBoard, OpeningAMissingBoardNamesItsPath) {
  const std::string path = board_path("missing");
  try {
    (void)DeliveryBoard::open(path);
    FAIL() << "opened a board that does not exist";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(DeliveryBoard, OpeningAFileOfAnotherSizeIsRefused) {
  const std::string path = board_path("wrong-size");
  std::ofstream(path) << "not a board";
  EXPECT_THROW((void)DeliveryBoard::open(path), std::runtime_error);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace mwbench::common
