// The kernels domain's candidate list lives in the public authoring header, so that engines built
// outside this repository (plugins) name the same candidates.
#pragma once
#include <coheriq/kernels_domain.hpp>
