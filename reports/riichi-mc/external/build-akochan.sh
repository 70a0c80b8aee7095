#!/bin/sh
# Builds the external mjai bot "akochan" (github.com/critter-mj/akochan) with our driver
# akochan_mjai.cpp (this folder) into $DIR/akochan_mjai, outside the repository.
#   usage: build-akochan.sh AKOCHAN_SRC BOOST_INCLUDE [DIR]
# AKOCHAN_SRC: a checkout of akochan (its ai_src/, share/ and params/ are used; the bot reads
#   params/ at run time, relative to the folder given to akochan_mjai).
# BOOST_INCLUDE: a folder holding boost/ headers (header-only parts: container/static_vector,
#   unordered_map/set); no boost library is linked (akochan's TCP client, which needs
#   boost_system and asio, is not built).
# Objects and the program go to DIR (default: AKOCHAN_SRC/build-taikai). Runs at nice 10, two
# compilers at a time.
set -eu
SRC=$(cd "$1" && pwd)
BOOST=$(cd "$2" && pwd)
DIR=${3:-$SRC/build-taikai}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$DIR/obj" "$DIR/stub/boost"
# akochan's share/include.hpp includes boost/asio.hpp and boost/bind.hpp for its TCP client
# (mjai_client.cpp); the AI library (ai_src/, share/) uses neither, so empty headers stand in.
for h in asio bind; do
  [ -f "$DIR/stub/boost/$h.hpp" ] || echo "/* empty: see build-akochan.sh */" > "$DIR/stub/boost/$h.hpp"
done
# akochan's own flags (ai_src/Makefile_Linux). NPROCS (default 8) is both the number of OpenMP
# threads the driver runs and the number of akochan's per-thread work buffers, whose capacities
# are fixed (ai_src/tehai_group.hpp, agari.hpp): a position is split among the threads, so with
# NPROCS=1 large positions overflow a buffer (boost::container::bad_alloc, the bot exits). The
# threads' split is fixed by NPROCS (OpenMP's static schedule), so answers do not depend on
# the machine; the referee counts every thread's CPU time.
NPROCS=${NPROCS:-8}
CXXFLAGS="-std=c++11 -O3 -fopenmp -pthread -DNPROCS=$NPROCS -mcmodel=medium -w -I$DIR/stub -I$BOOST"
for f in "$SRC"/ai_src/*.cpp "$SRC"/share/*.cpp; do
  o="$DIR/obj/$(basename "$(dirname "$f")")_$(basename "$f" .cpp).o"
  [ "$o" -nt "$f" ] && continue
  echo "nice -n 10 g++ $CXXFLAGS -c $f -o $o"
done | xargs -P 2 -I{} sh -c '{}'
nice -n 10 g++ $CXXFLAGS -I"$SRC" -c "$HERE/akochan_mjai.cpp" -o "$DIR/obj/akochan_mjai.o"
nice -n 10 g++ -fopenmp -pthread "$DIR"/obj/*.o -o "$DIR/akochan_mjai"
echo "built $DIR/akochan_mjai"
