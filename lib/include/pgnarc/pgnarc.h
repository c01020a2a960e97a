// The whole public API of the pgnarc library.
#pragma once

#include "pgnarc/archive.h"
#include "pgnarc/archive_writer.h"
#include "pgnarc/board_svg.h"
#include "pgnarc/chess.h"
#include "pgnarc/export.h"
#include "pgnarc/game.h"
#include "pgnarc/game_tree.h"
#include "pgnarc/pgn.h"
#include "pgnarc/query.h"
#include "pgnarc/salvage.h"
#include "pgnarc/share.h"
#include "pgnarc/status.h"
#include "pgnarc/version.h"
