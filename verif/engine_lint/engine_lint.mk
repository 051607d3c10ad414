# verif/engine_lint/ — the packet engine's modules in `make lint` (scripts/lint.sh lints
# each top with all of the RTL at LANES = 1, 4 and 12). ibsec_engine covers the stage
# modules and the datapath modules it instantiates (ibsec_compose, ibsec_pair_buffer,
# ibsec_pkt_buffer); the stages (ibsec_ingress .. ibsec_egress) are also tops of their
# own, so that a port a stage does not use is a warning there;
# ibsec_compose, ibsec_pair_buffer and ibsec_rx_check (open's CRC check during the
# arrival) are also tops of their own at every width, the wrappers fix OPEN.
LINT_TOPS += ibsec_engine ibsec_seal ibsec_open ibsec_compose ibsec_pair_buffer ibsec_pkt_buffer ibsec_hdr_store \
             ibsec_rx_check ibsec_ingress ibsec_parse ibsec_decide ibsec_crypt ibsec_egress
