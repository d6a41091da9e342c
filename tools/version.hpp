#pragma once
namespace lo {
inline constexpr const char *kVersion = "0.1.0";
}
