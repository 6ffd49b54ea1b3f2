// Count of positive entries: each warp votes, lane 0 adds the popcount.
__global__ void count_positive(const float* __restrict__ x, unsigned int* __restrict__ count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool positive = i < n && x[i] > 0.0f;
    unsigned int votes = __ballot(positive);
    if ((threadIdx.x & 31) == 0) atomicAdd(count, __popc(votes));
}
