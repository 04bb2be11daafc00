# SPDX-License-Identifier: BSD-3-Clause
# Entry point of the interop harness library: source this file, then
#
#   iop_session_begin; iop_image_build; iop_net_up; iop_guest_start 1; iop_guest_wait_rxe 1 60
#   iop_peer_server 1 ud_pingpong -s 512 -n 4 ...
#
# See tests/interop/README.md.
_iop_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$_iop_here/iop-common.sh"
. "$_iop_here/iop-image.sh"
. "$_iop_here/iop-net.sh"
. "$_iop_here/iop-guest.sh"
. "$_iop_here/iop-session.sh"
. "$_iop_here/iop-peers.sh"
unset _iop_here
