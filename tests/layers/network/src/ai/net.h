#pragma once
#include "core/types.h"
#include <boost/asio.hpp>
