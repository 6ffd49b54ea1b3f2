// Count of positive entries: each warp votes, lane 0 adds the popcount.
__global__ void count_positive(const float* __restrict__ x, unsigned int* __restrict__ count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool positive = i < n && x[i] > 0.0f;
    unsigned int votes = __ballot_sync(0xffffffff, positive);
    if ((threadIdx.x & 31) == 0) atomicAdd(count, __popc(votes));
}

void count_positive_launch(const float* x, unsigned int* count, int n) {
    count_positive<<<(n + 255) / 256, 256>>>(x, count, n);
}
