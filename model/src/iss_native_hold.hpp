// A model's hold on the opt-in native service (IPU_EMU_ISS=native or
// background): the service's compiler thread, its compiler processes and its
// build folder live while some model holds it. When the last hold goes, the
// requested compiles are waited for (so that the next run finds their
// translations in the cache), the thread is joined and the folder removed:
// none of them outlives the models that used it and nothing writes into the
// translation cache afterwards.
#pragma once

namespace ipu::model {

class NativeServiceHold {
public:
    NativeServiceHold();
    ~NativeServiceHold();
    NativeServiceHold(const NativeServiceHold &) = delete;
    NativeServiceHold &operator=(const NativeServiceHold &) = delete;
};

} // namespace ipu::model
