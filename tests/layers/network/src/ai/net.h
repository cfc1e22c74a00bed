#pragma once
#include <boost/asio.hpp>
#include "core/types.h"
