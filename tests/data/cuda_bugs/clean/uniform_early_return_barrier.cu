// Per-segment means of a ragged batch: block b reduces segment b (offsets[b] .. offsets[b + 1]).
__global__ void segment_mean(const float* __restrict__ values, const int* __restrict__ offsets,
                             float* __restrict__ means, int segments) {
    __shared__ float partial[256];
    int seg = blockIdx.x;
    if (seg >= segments) return;  // the whole block leaves together
    int begin = offsets[seg], end = offsets[seg + 1];
    if (begin == end) {  // also uniform: every thread of the block reads the same offsets
        if (threadIdx.x == 0) means[seg] = 0.0f;
        return;
    }
    float acc = 0.0f;
    for (int i = begin + threadIdx.x; i < end; i += blockDim.x) acc += values[i];
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) means[seg] = partial[0] / (end - begin);
}

void segment_mean_launch(const float* values, const int* offsets, float* means, int segments) {
    segment_mean<<<segments, 256>>>(values, offsets, means, segments);
}
