#ifdef __cplusplus
extern "C" {
#endif

// comptoir_set_threads calls cv::setNumThreads(n) when n >= 0 and
// returns cv::getNumThreads().
int comptoir_set_threads(int n);

#ifdef __cplusplus
}
#endif
