#include <opencv2/core.hpp>

#include "threads.h"

int comptoir_set_threads(int n) {
	if (n >= 0) {
		cv::setNumThreads(n);
	}
	return cv::getNumThreads();
}
