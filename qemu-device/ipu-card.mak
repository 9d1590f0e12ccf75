# Devices of the ipu-emu QEMU build (configs/devices/x86_64-softmmu/ipu-card.mak):
# what the tests and `make qemu-shell` need, nothing else.
CONFIG_Q35=y
CONFIG_VTD=y
CONFIG_PCIE_PORT=y
CONFIG_IPU_CARD=y
CONFIG_SERIAL=y
CONFIG_SERIAL_ISA=y
# The usb transport's guest test: an emulated FTDI UART (usb-serial) on an xHCI controller.
CONFIG_USB_XHCI_PCI=y
CONFIG_USB_SERIAL=y
