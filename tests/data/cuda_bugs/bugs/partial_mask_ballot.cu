// Flags, per warp, whether any of its 32 values is NaN.
__global__ void warp_has_nan(const float* __restrict__ x, unsigned int* __restrict__ flags, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool nan = i < n && isnan(x[i]);
    unsigned int votes = __ballot_sync(0xff, nan);
    if ((threadIdx.x & 31) == 0) flags[i / 32] = votes != 0;
}

void warp_has_nan_launch(const float* x, unsigned int* flags, int n) {
    warp_has_nan<<<(n + 255) / 256, 256>>>(x, flags, n);
}
