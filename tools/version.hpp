#pragma once
namespace lo::cli {
inline constexpr const char *kVersion = "0.1.0";
}
