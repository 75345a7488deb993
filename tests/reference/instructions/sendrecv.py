"""`sendrecv` (DMA; NKI 0.6 nki.isa.sendrecv), docs/SEMANTICS.md S16.2: the
reference model's semantics of one core's side of the exchange. The two
sides meet in multicore.py, which reads both srcs and hands each side the
other's bits (`m.incoming`) before this runs on either."""

RULE = "S16.2"

# No random block: a sendrecv needs a second core, and the random programs of
# gen_programs (so the lockstep's) have one. Its instances come from the
# multi-core random programs, which compare nisa's outputs with the model's
# (multicore.py) exactly.
MULTI_CORE = "tests/reference/run_multicore.py (ctest reference_multicore): random two-core programs against multicore.py"


def sendrecv(m, o):
    """NKI 0.6: "sends src to send_to_rank, receives from recv_from_rank into
    dst". src is read (a --strict hazard if unwritten, as for any instruction
    that reads a tile); dst takes the peer's src, bits exact (same dtype and
    shape on both sides, checked when the sides meet)."""
    m.check_written(o["src"])
    m.write_raw(o["dst"], m.incoming)
