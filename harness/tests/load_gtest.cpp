// --load's text: parsed, refused, printed back.
#include <gtest/gtest.h>

#include "mwbench/load.hpp"
#include "mwbench/options.hpp"

namespace {

using mwbench::Load;
using mwbench::parse_load;

TEST(Load, ClosedIsTheDefault) {
  EXPECT_FALSE(Load{}.open());
  EXPECT_EQ(parse_load("closed").kind, Load::Kind::closed);
  EXPECT_EQ(mwbench::to_string(Load{}), "closed");
}

TEST(Load, RatesAreDecimalNumbers) {
  const Load constant = parse_load("constant:1000");
  EXPECT_EQ(constant.kind, Load::Kind::constant);
  EXPECT_EQ(constant.rate_per_s, 1000.0);
  EXPECT_EQ(constant.mean_gap_ns(), 1e6);
  const Load poisson = parse_load("poisson:2.5e4");
  EXPECT_EQ(poisson.kind, Load::Kind::poisson);
  EXPECT_EQ(poisson.rate_per_s, 25000.0);
  EXPECT_EQ(parse_load("constant:0.5").rate_per_s, 0.5);
}

TEST(Load, PrintsWhatItReadsBack) {
  for (const char* text : {"closed", "constant:1000", "poisson:2500", "constant:0.5"}) {
    EXPECT_EQ(mwbench::to_string(parse_load(text)), text);
  }
  EXPECT_EQ(mwbench::to_string(parse_load("poisson:2.5e4")), "poisson:25000");
}

TEST(Load, BadTextNamesTheArgumentAndTheValue) {
  for (const char* bad :
       {"", "open", "constant", "constant:", "constant:-1", "poisson:0", "poisson:inf",
        "poisson:nan", "constant: 5", "constant:5 ", "Constant:5", "poisson:1e-9"}) {
    try {
      parse_load(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const mwbench::UsageError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(std::string("--load ") + bad + ":", 0), 0u) << e.what();
    }
  }
}

TEST(Load, ALongValueIsCutShortInTheMessage) {
  try {
    parse_load("constant:" + std::string(200, '9') + "x");
    FAIL() << "accepted";
  } catch (const mwbench::UsageError& e) {
    EXPECT_LT(std::string(e.what()).size(), 160u) << e.what();
  }
}

}  // namespace
