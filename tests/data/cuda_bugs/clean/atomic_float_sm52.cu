// Scatter-add of per-edge messages into node features (float atomics).
__global__ void scatter_add(const float* __restrict__ messages, const int* __restrict__ dst,
                            float* __restrict__ nodes, int edges, int features) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (int64_t)edges * features) return;
    int e = i / features, f = i % features;
    atomicAdd(&nodes[(int64_t)dst[e] * features + f], messages[i]);
}

void scatter_add_launch(const float* messages, const int* dst, float* nodes, int edges, int features) {
    int64_t n = (int64_t)edges * features;
    scatter_add<<<(unsigned int)((n + 255) / 256), 256>>>(messages, dst, nodes, edges, features);
}
